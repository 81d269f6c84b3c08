import { CollectorError, defineCollector } from '../check.ts'
import { fetchPage, type HtmlPage } from '../snapshot.ts'

/** Up to 3 sampled product pages (from CommerceSignals.productUrls, else the homepage). */
export interface ProductPagesArtifact {
  pages: HtmlPage[]
  /**
   * Where the pages came from: `product-urls` (sampled product pages), `homepage` (a commerce site where no
   * product page was found), `none` (no commerce signal, so nothing was fetched).
   */
  source?: 'product-urls' | 'homepage' | 'none'
  /** Sampled product URLs whose fetch failed. */
  errors?: { url: string; error: string }[]
}

/** The pricing page, fetched and parsed; null when none was found. */
export type PricingPageArtifact = HtmlPage | null

const PRODUCT_SAMPLE = 3

export const productPagesCollector = defineCollector({
  key: 'productPages',
  async collect(ctx) {
    const commerce = await ctx.get('commerceSignals')
    if (!commerce.isCommerce) return { pages: [], source: 'none', errors: [] }
    const urls = commerce.productUrls.slice(0, PRODUCT_SAMPLE)
    if (urls.length === 0) return { pages: [await ctx.get('homepage')], source: 'homepage', errors: [] }
    const settled = await Promise.all(
      urls.map((url) =>
        fetchPage(ctx.http, url).catch((error: unknown) => {
          if (error instanceof CollectorError) return { url, error: error.message }
          throw error
        }),
      ),
    )
    const pages = settled.filter((result): result is HtmlPage => '$' in result)
    const errors = settled.filter((result): result is { url: string; error: string } => !('$' in result))
    if (pages.length === 0)
      throw new CollectorError(`no sampled product page could be fetched: ${errors.map((e) => e.error).join('; ')}`)
    return { pages, source: 'product-urls', errors }
  },
})

export const pricingPageCollector = defineCollector({
  key: 'pricingPage',
  async collect(ctx) {
    const { pricingUrl } = await ctx.get('commerceSignals')
    return pricingUrl ? fetchPage(ctx.http, pricingUrl) : null
  },
})
