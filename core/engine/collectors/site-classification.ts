import { defineCollector } from '../check.ts'
import { isRecord, parseJson } from '../snapshot.ts'

export const SITE_TYPES = ['content', 'business', 'app', 'store'] as const
export type SiteType = (typeof SITE_TYPES)[number]

/** What the site is, decided at scan time; the siteType lens reads it (or a type the caller declares). */
export interface SiteClassification {
  type: SiteType | null
  source: 'self-declared' | 'classified' | 'default' | 'blocked'
  confidence: 'high' | 'low'
  basis: string
}

/** A site may state its own type: `<meta name="agent-readiness:site-type" content="store">`. */
export const SELF_DECLARATION_META = 'agent-readiness:site-type'

const CONTENT_TYPES = /"@type"\s*:\s*(\[[^\]]*)?"(Article|BlogPosting|NewsArticle|Blog|TechArticle)"/

export const siteClassificationCollector = defineCollector({
  key: 'siteClassification',
  async collect({ get }) {
    const [homepage, robots] = await Promise.all([get('homepage'), get('robots')])
    // A site that keeps agents out cannot be classified; it is read with the default rubric, and says why.
    if (homepage.status >= 400 || !robots.isAllowed('ChatGPT-User', '/')) {
      return {
        type: 'business',
        source: 'blocked',
        confidence: 'low',
        basis:
          homepage.status >= 400
            ? `the homepage answered ${homepage.status}, so the site could not be read; default rubric applied`
            : 'robots.txt disallows user-initiated agents on /, so the site was not read; default rubric applied',
      }
    }
    const declared = homepage.$(`meta[name="${SELF_DECLARATION_META}"]`).attr('content')?.trim().toLowerCase()
    if (declared && (SITE_TYPES as readonly string[]).includes(declared)) {
      return {
        type: declared as SiteType,
        source: 'self-declared',
        confidence: 'high',
        basis: `the homepage declares ${SELF_DECLARATION_META}="${declared}"`,
      }
    }
    const [commerce, api] = await Promise.all([get('commerceSignals'), get('apiSignals')])
    const strongCommerce = commerce.reasons.some((reason) => !reason.startsWith('pricing page'))
    if (strongCommerce) {
      return {
        type: 'store',
        source: 'classified',
        confidence: 'high',
        basis: `commerce signals: ${commerce.reasons.join('; ')}`,
      }
    }
    if (api.hasApi) {
      const strong = api.reasons.some(
        (reason) => reason.startsWith('OpenAPI') || reason.startsWith('RFC 9727') || reason.startsWith('GraphQL'),
      )
      return {
        type: 'app',
        source: 'classified',
        confidence: strong ? 'high' : 'low',
        basis: `API signals: ${api.reasons.join('; ')}`,
      }
    }
    const jsonLd = homepage.$('script[type="application/ld+json"]').text()
    if (CONTENT_TYPES.test(jsonLd) || homepage.$('article').length >= 2) {
      return {
        type: 'content',
        source: 'classified',
        confidence: CONTENT_TYPES.test(jsonLd) ? 'high' : 'low',
        basis: 'articles or Article structured data on the homepage',
      }
    }
    if (commerce.pricingUrl) {
      return {
        type: 'business',
        source: 'classified',
        confidence: 'high',
        basis: 'a pricing page without a storefront',
      }
    }
    const organization = parseJson(jsonLd)
    const basis = isRecord(organization)
      ? 'structured data names an organization'
      : 'no stronger signal; business is the default'
    return { type: 'business', source: 'default', confidence: 'low', basis }
  },
})
