// Every check, listed explicitly in catalog order (static imports keep the set reviewable). `file` is where the
// check lives; the registry refuses a check whose id differs from its file name.
import type { ArtifactKey } from '../core/engine/artifacts.ts'
import type { CheckDefinition } from '../core/engine/check.ts'
import type { RegisteredCheck } from '../core/engine/registry.ts'
import a2aAgentCard from './domain/a2a-agent-card.ts'
import accessibleForms from './domain/accessible-forms.ts'
import acpDiscovery from './domain/acp-discovery.ts'
import agentSkillsIndex from './domain/agent-skills-index.ts'
import agentsJson from './domain/agents-json.ts'
import aiCatalog from './domain/ai-catalog.ts'
import aiPluginManifest from './domain/ai-plugin-manifest.ts'
import aiTxt from './domain/ai-txt.ts'
import ap2Extension from './domain/ap2-extension.ts'
import apiCatalog from './domain/api-catalog.ts'
import apiDocsLinked from './domain/api-docs-linked.ts'
import botChallengeFree from './domain/bot-challenge-free.ts'
import contentSignals from './domain/content-signals.ts'
import contentWithoutJs from './domain/content-without-js.ts'
import corsPublicMetadata from './domain/cors-public-metadata.ts'
import graphqlIntrospection from './domain/graphql-introspection.ts'
import httpErrorSemantics from './domain/http-error-semantics.ts'
import linkHeaders from './domain/link-headers.ts'
import llmsFullTxt from './domain/llms-full-txt.ts'
import llmsTxt from './domain/llms-txt.ts'
import markdownAlternates from './domain/markdown-alternates.ts'
import markdownNegotiation from './domain/markdown-negotiation.ts'
import mcpAppExtensionDeclared from './mcp-app/mcp-app-extension-declared.ts'
import mcpAppTextFallback from './mcp-app/mcp-app-text-fallback.ts'
import mcpAppToolVisibility from './mcp-app/mcp-app-tool-visibility.ts'
import mcpAppUiMetadata from './mcp-app/mcp-app-ui-metadata.ts'
import mcpAppUiResource from './mcp-app/mcp-app-ui-resource.ts'
import mcpEndpointAdvertised from './domain/mcp-endpoint-advertised.ts'
import mcpCacheHints from './mcp/mcp-cache-hints.ts'
import mcpErrorHandling from './mcp/mcp-error-handling.ts'
import mcpHeaderValidation from './mcp/mcp-header-validation.ts'
import mcpInitialize from './mcp/mcp-initialize.ts'
import mcpPagination from './mcp/mcp-pagination.ts'
import mcpPing from './mcp/mcp-ping.ts'
import mcpProtocolVersion from './mcp/mcp-protocol-version.ts'
import mcpResourcesPromptsList from './mcp/mcp-resources-prompts-list.ts'
import mcpServerCard from './domain/mcp-server-card.ts'
import mcpServerDiscover from './mcp/mcp-server-discover.ts'
import mcpServerInfo from './mcp/mcp-server-info.ts'
import mcpSessionHandling from './mcp/mcp-session-handling.ts'
import mcpStreamableHttp from './mcp/mcp-streamable-http.ts'
import mcpToolAnnotations from './mcp/mcp-tool-annotations.ts'
import mcpToolDescriptions from './mcp/mcp-tool-descriptions.ts'
import mcpToolInputSchema from './mcp/mcp-tool-input-schema.ts'
import mcpToolNaming from './mcp/mcp-tool-naming.ts'
import mcpToolOutputSchema from './mcp/mcp-tool-output-schema.ts'
import mcpToolsList from './mcp/mcp-tools-list.ts'
import mppPaymentChallenge from './domain/mpp-payment-challenge.ts'
import nlwebAsk from './domain/nlweb-ask.ts'
import oauthAuthorizationServer from './domain/oauth-authorization-server.ts'
import oauthClientRegistration from './domain/oauth-client-registration.ts'
import oauthProtectedResource from './domain/oauth-protected-resource.ts'
import openapiDescription from './domain/openapi-description.ts'
import openapiOperationQuality from './domain/openapi-operation-quality.ts'
import opengraphMetadata from './domain/opengraph-metadata.ts'
import pricingMachineReadable from './domain/pricing-machine-readable.ts'
import productOfferJsonld from './domain/product-offer-jsonld.ts'
import rateLimitHeaders from './domain/rate-limit-headers.ts'
import robotsAiAgentsAllowed from './domain/robots-ai-agents-allowed.ts'
import robotsAiRulesExplicit from './domain/robots-ai-rules-explicit.ts'
import robotsTxt from './domain/robots-txt.ts'
import semanticHtml from './domain/semantic-html.ts'
import sitemapXml from './domain/sitemap-xml.ts'
import stableSelectors from './domain/stable-selectors.ts'
import structuredDataJsonld from './domain/structured-data-jsonld.ts'
import ucpProfile from './domain/ucp-profile.ts'
import webBotAuthAccepted from './domain/web-bot-auth-accepted.ts'
import webBotAuthDirectory from './domain/web-bot-auth-directory.ts'
import webmcpTools from './domain/webmcp-tools.ts'
import x402PaymentRequired from './domain/x402-payment-required.ts'

// A check's `run` takes exactly its own artifacts; the registry holds them all under the widest type.
const check = <N extends ArtifactKey>(file: string, definition: CheckDefinition<N>): RegisteredCheck => ({
  file,
  definition: definition as unknown as CheckDefinition,
})

export const REGISTERED_CHECKS: readonly RegisteredCheck[] = [
  // Discovery
  check('domain/robots-txt', robotsTxt),
  check('domain/sitemap-xml', sitemapXml),
  check('domain/llms-txt', llmsTxt),
  check('domain/llms-full-txt', llmsFullTxt),
  check('domain/link-headers', linkHeaders),
  check('domain/api-catalog', apiCatalog),
  check('domain/openapi-description', openapiDescription),
  check('domain/graphql-introspection', graphqlIntrospection),
  check('domain/mcp-endpoint-advertised', mcpEndpointAdvertised),
  check('domain/mcp-server-card', mcpServerCard),
  check('domain/ai-catalog', aiCatalog),
  check('domain/a2a-agent-card', a2aAgentCard),
  check('domain/agent-skills-index', agentSkillsIndex),
  check('domain/ai-plugin-manifest', aiPluginManifest),
  check('domain/agents-json', agentsJson),
  check('domain/nlweb-ask', nlwebAsk),
  check('mcp/mcp-initialize', mcpInitialize),
  check('mcp/mcp-protocol-version', mcpProtocolVersion),
  check('mcp/mcp-server-info', mcpServerInfo),
  check('mcp/mcp-tools-list', mcpToolsList),
  check('mcp/mcp-resources-prompts-list', mcpResourcesPromptsList),
  check('mcp/mcp-server-discover', mcpServerDiscover),
  check('mcp/mcp-cache-hints', mcpCacheHints),
  check('mcp-app/mcp-app-extension-declared', mcpAppExtensionDeclared),
  // Access
  check('domain/robots-ai-agents-allowed', robotsAiAgentsAllowed),
  check('domain/robots-ai-rules-explicit', robotsAiRulesExplicit),
  check('domain/content-signals', contentSignals),
  check('domain/ai-txt', aiTxt),
  check('domain/bot-challenge-free', botChallengeFree),
  check('domain/content-without-js', contentWithoutJs),
  check('domain/markdown-negotiation', markdownNegotiation),
  check('domain/markdown-alternates', markdownAlternates),
  check('domain/web-bot-auth-directory', webBotAuthDirectory),
  check('domain/web-bot-auth-accepted', webBotAuthAccepted),
  check('domain/oauth-protected-resource', oauthProtectedResource),
  check('domain/oauth-authorization-server', oauthAuthorizationServer),
  check('domain/oauth-client-registration', oauthClientRegistration),
  check('domain/cors-public-metadata', corsPublicMetadata),
  check('mcp/mcp-streamable-http', mcpStreamableHttp),
  check('mcp/mcp-session-handling', mcpSessionHandling),
  check('mcp/mcp-header-validation', mcpHeaderValidation),
  // Usability
  check('domain/semantic-html', semanticHtml),
  check('domain/accessible-forms', accessibleForms),
  check('domain/stable-selectors', stableSelectors),
  check('domain/structured-data-jsonld', structuredDataJsonld),
  check('domain/opengraph-metadata', opengraphMetadata),
  check('domain/http-error-semantics', httpErrorSemantics),
  check('domain/rate-limit-headers', rateLimitHeaders),
  check('domain/api-docs-linked', apiDocsLinked),
  check('domain/openapi-operation-quality', openapiOperationQuality),
  check('domain/webmcp-tools', webmcpTools),
  check('mcp/mcp-tool-naming', mcpToolNaming),
  check('mcp/mcp-tool-descriptions', mcpToolDescriptions),
  check('mcp/mcp-tool-input-schema', mcpToolInputSchema),
  check('mcp/mcp-tool-annotations', mcpToolAnnotations),
  check('mcp/mcp-tool-output-schema', mcpToolOutputSchema),
  check('mcp/mcp-error-handling', mcpErrorHandling),
  check('mcp/mcp-pagination', mcpPagination),
  check('mcp/mcp-ping', mcpPing),
  check('mcp-app/mcp-app-ui-resource', mcpAppUiResource),
  check('mcp-app/mcp-app-ui-metadata', mcpAppUiMetadata),
  check('mcp-app/mcp-app-tool-visibility', mcpAppToolVisibility),
  check('mcp-app/mcp-app-text-fallback', mcpAppTextFallback),
  // Payments
  check('domain/product-offer-jsonld', productOfferJsonld),
  check('domain/pricing-machine-readable', pricingMachineReadable),
  check('domain/x402-payment-required', x402PaymentRequired),
  check('domain/acp-discovery', acpDiscovery),
  check('domain/ucp-profile', ucpProfile),
  check('domain/ap2-extension', ap2Extension),
  check('domain/mpp-payment-challenge', mppPaymentChallenge),
]
