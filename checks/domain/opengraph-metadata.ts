// The homepage's Open Graph tags (og:title, og:type, og:image, og:url), meta description and canonical link. A tag
// still holding a suggested template's placeholder ("One sentence on what the page offers") describes nothing: it
// keeps the check from passing. Spec: https://ogp.me/
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { templatePlaceholder } from '../lib/placeholders.ts'
import { pageLabel } from '../lib/page-label.ts'

export default defineCheck({
  meta: {
    id: 'opengraph-metadata',
    name: 'OpenGraph and meta description',
    description:
      'Agents summarise and cite pages from their title, description, image and canonical URL; Open Graph and a meta description give those without guessing.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 3,
    specUrl: 'https://ogp.me/',
    recommendation:
      'Add og:title, og:type, og:image and og:url meta tags, a <meta name="description"> and a <link rel="canonical"> to the homepage.',
    scope: 'page',
    needs: ['homepage'],
  },
  run({ homepage }, context) {
    const { $ } = homepage
    // ogp.me uses property=; many sites write name=, which Open Graph consumers accept too.
    const og = (property: string) =>
      $(`meta[property="${property}"], meta[name="${property}"]`).first().attr('content')?.trim()
    const title = $('title').first().text().trim() || 'Page title'
    const items = [
      { tag: 'og:title', value: og('og:title'), example: `<meta property="og:title" content="${title}">` },
      { tag: 'og:type', value: og('og:type'), example: '<meta property="og:type" content="website">' },
      {
        tag: 'og:image',
        value: og('og:image'),
        example: '<meta property="og:image" content="https://…/social-card.png">',
      },
      { tag: 'og:url', value: og('og:url'), example: `<meta property="og:url" content="${homepage.url}">` },
      {
        tag: 'meta description',
        value: $('meta[name="description" i]').first().attr('content')?.trim(),
        example: '<meta name="description" content="One sentence on what the site offers">',
      },
      {
        tag: 'canonical',
        value: $('link[rel~="canonical" i]').first().attr('href')?.trim(),
        example: `<link rel="canonical" href="${homepage.url}">`,
      },
    ]
    const present = items.filter((item) => item.value)
    const missing = items.filter((item) => !item.value)
    const templated = $('meta[property^="og:"], meta[name^="og:"], meta[name="description" i]')
      .toArray()
      .map((element) => ({
        tag: $(element).attr('property') ?? $(element).attr('name') ?? '',
        placeholder: templatePlaceholder($(element).attr('content') ?? ''),
      }))
      .filter((meta) => meta.placeholder !== null)
    const details = `${present.length} of ${items.length} on ${homepage.url}: ${present.map((item) => item.tag).join(', ') || 'none'}${missing.length > 0 ? `; missing ${missing.map((item) => item.tag).join(', ')}` : ''}${templated.length > 0 ? `; still a template placeholder: ${templated.map((meta) => `${meta.tag} "${meta.placeholder}"`).join(', ')}` : ''}`
    const rewrite =
      templated.length > 0
        ? `Replace the placeholder text of ${templated.map((meta) => meta.tag).join(', ')} with what the page actually offers.`
        : ''
    if (missing.length === 0) return templated.length === 0 ? pass(details) : warn(details, rewrite)
    const recommendation = `Add to the ${pageLabel(context)} <head>: ${missing.map((item) => item.example).join(' ')}${rewrite ? ` ${rewrite}` : ''}`
    return present.length >= 3 ? warn(details, recommendation) : fail(details, recommendation)
  },
})
