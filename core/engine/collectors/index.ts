import type { ArtifactKey } from '../artifacts.ts'
import type { Collector } from '../check.ts'
import { agentCardCollector } from './agent-card.ts'
import { agentProbesCollector } from './agent-probes.ts'
import { agentSkillsCollector } from './agent-skills.ts'
import { aiCatalogCollector } from './ai-catalog.ts'
import { apiCatalogCollector } from './api-catalog.ts'
import { apiSignalsCollector } from './api-signals.ts'
import { pricingPageCollector, productPagesCollector } from './commerce-pages.ts'
import { commerceSignalsCollector } from './commerce-signals.ts'
import { corsCollector } from './cors.ts'
import { graphqlCollector } from './graphql.ts'
import { docsPageCollector, homepageCollector } from './homepage.ts'
import { linkHeaderCollector } from './link-header.ts'
import { llmsTxtCollector, llmsTxtLinksCollector } from './llms-txt.ts'
import { markdownHomeCollector, markdownVariantsCollector } from './markdown.ts'
import { mcpCollector } from './mcp.ts'
import { mcpEndpointsCollector } from './mcp-endpoints.ts'
import { mcpServerCardCollector } from './mcp-server-card.ts'
import { notFoundCollector } from './not-found.ts'
import { oauthCollector } from './oauth.ts'
import { openapiCollector } from './openapi.ts'
import { paymentProbesCollector } from './payment-probes.ts'
import { renderedCollector } from './rendered.ts'
import { robotsCollector } from './robots.ts'
import { siteClassificationCollector } from './site-classification.ts'
import { siteIdentityCollector } from './site-identity.ts'
import { sitemapCollector } from './sitemap.ts'
import {
  acpCollector,
  agentsJsonCollector,
  aiPluginCollector,
  aiTxtCollector,
  llmsFullTxtCollector,
  nlwebCollector,
  ucpCollector,
  wbaDirectoryCollector,
} from './well-known.ts'

/** Exactly one collector per artifact key; the mapped type makes a missing or misnamed one a compile error. */
export const COLLECTORS: { readonly [K in ArtifactKey]: Collector<K> } = {
  homepage: homepageCollector,
  docsPage: docsPageCollector,
  agentProbes: agentProbesCollector,
  robots: robotsCollector,
  sitemap: sitemapCollector,
  llmsTxt: llmsTxtCollector,
  llmsTxtLinks: llmsTxtLinksCollector,
  llmsFullTxt: llmsFullTxtCollector,
  markdownHome: markdownHomeCollector,
  markdownVariants: markdownVariantsCollector,
  linkHeader: linkHeaderCollector,
  apiCatalog: apiCatalogCollector,
  openapi: openapiCollector,
  graphql: graphqlCollector,
  apiSignals: apiSignalsCollector,
  commerceSignals: commerceSignalsCollector,
  aiCatalog: aiCatalogCollector,
  agentCard: agentCardCollector,
  agentSkills: agentSkillsCollector,
  aiPlugin: aiPluginCollector,
  agentsJson: agentsJsonCollector,
  nlweb: nlwebCollector,
  mcp: mcpCollector,
  mcpServerCard: mcpServerCardCollector,
  mcpEndpoints: mcpEndpointsCollector,
  aiTxt: aiTxtCollector,
  wbaDirectory: wbaDirectoryCollector,
  oauth: oauthCollector,
  cors: corsCollector,
  notFound: notFoundCollector,
  acp: acpCollector,
  ucp: ucpCollector,
  paymentProbes: paymentProbesCollector,
  productPages: productPagesCollector,
  pricingPage: pricingPageCollector,
  siteClassification: siteClassificationCollector,
  siteIdentity: siteIdentityCollector,
  rendered: renderedCollector,
}
