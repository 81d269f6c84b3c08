import type { AgentProbes } from './collectors/agent-probes.ts'
import type { AgentCardArtifact } from './collectors/agent-card.ts'
import type { AgentSkillsArtifact } from './collectors/agent-skills.ts'
import type { AiCatalogArtifact } from './collectors/ai-catalog.ts'
import type { ApiCatalogArtifact } from './collectors/api-catalog.ts'
import type { ApiSignals } from './collectors/api-signals.ts'
import type { CommerceSignals } from './collectors/commerce-signals.ts'
import type { CorsArtifact } from './collectors/cors.ts'
import type { GraphqlArtifact } from './collectors/graphql.ts'
import type { LinkHeaderArtifact } from './collectors/link-header.ts'
import type { LlmsTxtArtifact, LlmsTxtLinksArtifact } from './collectors/llms-txt.ts'
import type { MarkdownVariantsArtifact } from './collectors/markdown.ts'
import type { McpServerArtifact } from './collectors/mcp.ts'
import type { McpEndpointsArtifact } from './collectors/mcp-endpoints.ts'
import type { McpServerCardArtifact } from './collectors/mcp-server-card.ts'
import type { NotFoundArtifact } from './collectors/not-found.ts'
import type { OauthArtifact } from './collectors/oauth.ts'
import type { OpenapiArtifact } from './collectors/openapi.ts'
import type { PaymentProbesArtifact } from './collectors/payment-probes.ts'
import type { ProductPagesArtifact, PricingPageArtifact } from './collectors/commerce-pages.ts'
import type { RenderedPage } from './collectors/rendered.ts'
import type { RobotsArtifact } from './collectors/robots.ts'
import type { SiteClassification } from './collectors/site-classification.ts'
import type { SiteIdentity } from './collectors/site-identity.ts'
import type { SitemapArtifact } from './collectors/sitemap.ts'
import type { HtmlPage, HttpSnapshot } from './snapshot.ts'

/**
 * Every artifact a check can ask for, by key. Each key has exactly one collector (collectors/index.ts holds the
 * map, and the compiler refuses a key without one).
 */
export interface ArtifactMap {
  /** GET / with a browser User-Agent and Accept, parsed. */
  homepage: HtmlPage
  /** A docs page linked from the homepage, parsed; null when none is linked. */
  docsPage: HtmlPage | null
  /** The homepage fetched as AI agents and as the signed/unsigned scanner (challenge detection). */
  agentProbes: AgentProbes
  robots: RobotsArtifact
  sitemap: SitemapArtifact
  /** llms.txt: the root's, else one the homepage names (rel="describedby") or one beside a redirected homepage. */
  llmsTxt: LlmsTxtArtifact
  /** A sample of llms.txt's same-origin links, requested for their status. */
  llmsTxtLinks: LlmsTxtLinksArtifact
  llmsFullTxt: HttpSnapshot
  /** GET / with `Accept: text/markdown, text/html;q=0.5`. */
  markdownHome: HttpSnapshot
  markdownVariants: MarkdownVariantsArtifact
  linkHeader: LinkHeaderArtifact
  apiCatalog: ApiCatalogArtifact
  openapi: OpenapiArtifact
  graphql: GraphqlArtifact
  apiSignals: ApiSignals
  commerceSignals: CommerceSignals
  aiCatalog: AiCatalogArtifact
  agentCard: AgentCardArtifact
  agentSkills: AgentSkillsArtifact
  aiPlugin: HttpSnapshot
  agentsJson: HttpSnapshot
  nlweb: HttpSnapshot
  /** The MCP server at target.mcpUrl (mcp and mcp-app kinds, and each server of a domain's fan-out). */
  mcp: McpServerArtifact
  mcpServerCard: McpServerCardArtifact
  mcpEndpoints: McpEndpointsArtifact
  aiTxt: HttpSnapshot
  wbaDirectory: HttpSnapshot
  oauth: OauthArtifact
  cors: CorsArtifact
  notFound: NotFoundArtifact
  acp: HttpSnapshot
  ucp: HttpSnapshot
  paymentProbes: PaymentProbesArtifact
  productPages: ProductPagesArtifact
  pricingPage: PricingPageArtifact
  /** What kind of site this is (content, business, app, store), for the siteType lens. */
  siteClassification: SiteClassification
  /** Display name and market category. */
  siteIdentity: SiteIdentity
  /** The homepage after JavaScript ran in a real browser (deep). */
  rendered: RenderedPage
}

export type ArtifactKey = keyof ArtifactMap
