// schema.org JSON-LD on the homepage: at least one block that parses, with a schema.org @context and a known @type.
// Spec: https://schema.org/docs/gs.html (JSON-LD 1.1: https://www.w3.org/TR/json-ld11/)
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { extractJsonLd, inlineSchemaTypes } from '../../core/engine/lib/jsonld.ts'

/** Common schema.org types for site-level markup; an unlisted type still counts when another node is listed. */
const RECOGNISED_TYPES = new Set(
  (
    'Organization Corporation LocalBusiness Store OnlineStore OnlineBusiness NGO EducationalOrganization GovernmentOrganization ' +
    'Person WebSite WebPage AboutPage ContactPage CollectionPage FAQPage QAPage ItemPage ProfilePage SearchResultsPage ' +
    'SoftwareApplication WebApplication MobileApplication SoftwareSourceCode APIReference TechArticle Product ProductGroup ' +
    'Offer AggregateOffer Service Brand Article NewsArticle BlogPosting Blog Report HowTo Recipe Event Course JobPosting ' +
    'BreadcrumbList ItemList SiteNavigationElement Review AggregateRating VideoObject ImageObject Dataset Book Movie ' +
    'Place Restaurant Hotel MedicalOrganization Question Answer SearchAction DigitalDocument CreativeWork Thing'
  ).split(' '),
)

export default defineCheck({
  meta: {
    id: 'structured-data-jsonld',
    name: 'schema.org JSON-LD',
    description:
      'JSON-LD states in data what the page says in prose (who runs the site, what it sells, what an article is about), so agents need not infer it.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 6,
    specUrl: 'https://schema.org/docs/gs.html',
    recommendation:
      'Add a <script type="application/ld+json"> block with "@context": "https://schema.org" describing the site (Organization and WebSite, or Product / SoftwareApplication for what it sells).',
    scope: 'page',
    needs: ['homepage'],
  },
  run({ homepage }) {
    const { blocks, nodes } = extractJsonLd(homepage.$)
    const inline = inlineSchemaTypes(homepage.$)
    const inlineTypes = [...new Set([...inline.microdata, ...inline.rdfa])]
    const broken = blocks.filter((block) => !block.parsed)
    const brokenNote = broken
      .map((block) => `block #${block.index} does not parse (${block.error?.slice(0, 80)})`)
      .join('; ')
    const site = homepage.url
    const suggestion = `Add to ${site} a block such as {"@context":"https://schema.org","@type":"Organization","name":…,"url":"${site}"}.`

    if (blocks.length === 0) {
      if (inlineTypes.length > 0) {
        return warn(
          `No JSON-LD on ${site}; schema.org types only as ${inline.microdata.length > 0 ? 'microdata' : 'RDFa'} (${inlineTypes.slice(0, 5).join(', ')})`,
          `Publish the same ${inlineTypes.slice(0, 3).join(', ')} data as JSON-LD, which agents and search engines parse most reliably.`,
        )
      }
      return fail(`No JSON-LD, microdata or RDFa on ${site}`, suggestion)
    }

    const typed = nodes.filter((node) => node.types.length > 0)
    const schemaTyped = typed.filter((node) => node.schemaOrg)
    const recognised = [
      ...new Set(schemaTyped.flatMap((node) => node.types).filter((type) => RECOGNISED_TYPES.has(type))),
    ]
    if (recognised.length > 0) {
      const summary = `${blocks.length} JSON-LD block(s) on ${site} with schema.org types ${recognised.slice(0, 6).join(', ')}`
      if (broken.length > 0)
        return warn(
          `${summary}, but ${brokenNote}`,
          `Fix the JSON syntax of ${broken.map((block) => `block #${block.index}`).join(', ')} (trailing commas, unescaped quotes, HTML inside strings).`,
        )
      return pass(summary)
    }

    if (broken.length === blocks.length) {
      const details = `${blocks.length} JSON-LD block(s) on ${site}, none parses: ${brokenNote}`
      const recommendation = `Fix the JSON syntax of the JSON-LD on ${site}; validate it with a JSON-LD or Rich Results tester.`
      return inlineTypes.length > 0
        ? warn(`${details}; microdata/RDFa types ${inlineTypes.slice(0, 5).join(', ')}`, recommendation)
        : fail(details, recommendation)
    }
    const problems: string[] = []
    if (typed.length === 0) problems.push('no node has an @type')
    else if (schemaTyped.length === 0)
      problems.push(
        `types ${[...new Set(typed.flatMap((node) => node.types))].slice(0, 5).join(', ')} have no schema.org @context`,
      )
    else
      problems.push(
        `types ${[...new Set(schemaTyped.flatMap((node) => node.types))].slice(0, 5).join(', ')} are not common schema.org types`,
      )
    if (broken.length > 0) problems.push(brokenNote)
    return warn(
      `${blocks.length} JSON-LD block(s) on ${site} parse, but ${problems.join('; ')}`,
      `Give each JSON-LD block "@context": "https://schema.org" and a schema.org "@type" such as Organization, WebSite or Product.`,
    )
  },
})
