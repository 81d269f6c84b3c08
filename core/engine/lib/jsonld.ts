/**
 * schema.org structured data in a parsed page, shared by structured-data-jsonld, product-offer-jsonld and
 * pricing-machine-readable: every `<script type="application/ld+json">`, top-level arrays and `@graph` flattened,
 * `@type` arrays and prefixed types normalised, nested typed entities (offers inside a Product) collected too.
 */
import type { CheerioAPI } from 'cheerio'
import { parseBoundedJson } from '../../parse/bounded.ts'
import { isRecord, mediaType } from '../snapshot.ts'

export interface JsonLdBlock {
  /** Position among the page's JSON-LD scripts, from 1. */
  index: number
  parsed: boolean
  error?: string
}

export interface JsonLdNode {
  /** Normalised type names: `schema:Product` and `https://schema.org/Product` both become `Product`. */
  types: string[]
  /** The node's own or inherited `@context` (or a full type IRI) names schema.org. */
  schemaOrg: boolean
  /** A block root, a top-level array element or a `@graph` member; false for entities nested in another node. */
  topLevel: boolean
  value: Record<string, unknown>
}

export interface JsonLdExtraction {
  blocks: JsonLdBlock[]
  /** Every top-level node (typed or not) and every nested typed node, in document order. */
  nodes: JsonLdNode[]
}

const SCHEMA_PREFIX = /^(?:https?:\/\/schema\.org\/|schema:)/i

export function extractJsonLd($: CheerioAPI): JsonLdExtraction {
  const blocks: JsonLdBlock[] = []
  const nodes: JsonLdNode[] = []
  $('script[type]')
    .filter((_, element) => mediaType($(element).attr('type')) === 'application/ld+json')
    .each((position, element) => {
      const index = position + 1
      const text = unwrap($(element).text())
      try {
        // Bounded: a block nested past MAX_JSON_DEPTH is recorded unparsed, like one that is not JSON.
        walk(parseBoundedJson(text), false, true, nodes)
        blocks.push({ index, parsed: true })
      } catch (error) {
        blocks.push({ index, parsed: false, error: error instanceof Error ? error.message : String(error) })
      }
    })
  return { blocks, nodes }
}

/** Nodes carrying at least one of the given (normalised) types. */
export function nodesOfType(nodes: readonly JsonLdNode[], types: ReadonlySet<string>): JsonLdNode[] {
  return nodes.filter((node) => node.types.some((type) => types.has(type)))
}

/** A JSON-LD value that may be a single item or an array, as an array of objects. */
export function records(value: unknown): Record<string, unknown>[] {
  return (Array.isArray(value) ? value : [value]).filter(isRecord)
}

export function typesOf(value: Record<string, unknown>): string[] {
  const raw = value['@type']
  const list = Array.isArray(raw) ? raw : [raw]
  return list.filter((type): type is string => typeof type === 'string' && type.trim() !== '').map(normaliseType)
}

function normaliseType(type: string): string {
  return type.trim().replace(SCHEMA_PREFIX, '')
}

/** schema.org types declared in microdata (`itemtype`) or RDFa (`typeof` under a schema.org vocab or prefix). */
export function inlineSchemaTypes($: CheerioAPI): { microdata: string[]; rdfa: string[] } {
  const microdata = new Set<string>()
  $('[itemscope][itemtype]').each((_, element) => {
    for (const itemType of ($(element).attr('itemtype') ?? '').split(/\s+/)) {
      if (/schema\.org\//i.test(itemType)) microdata.add(itemType.replace(/^.*schema\.org\//i, ''))
    }
  })
  const rdfa = new Set<string>()
  $('[typeof]').each((_, element) => {
    const node = $(element)
    const vocab = node.closest('[vocab]').attr('vocab') ?? ''
    for (const type of (node.attr('typeof') ?? '').split(/\s+/).filter(Boolean)) {
      if (SCHEMA_PREFIX.test(type) || /schema\.org/i.test(vocab)) rdfa.add(normaliseType(type))
    }
  })
  return { microdata: [...microdata].filter(Boolean), rdfa: [...rdfa].filter(Boolean) }
}

export interface OfferSummary {
  /** `price`, `lowPrice` or `priceSpecification.price`, as a number when it parses. */
  price: number | null
  currency: string | null
  /** priceCurrency is an ISO 4217 code (three capital letters). */
  currencyValid: boolean
  availability: string | null
}

/** What an Offer, AggregateOffer or PriceSpecification states about its price. */
export function summariseOffer(offer: Record<string, unknown>): OfferSummary {
  const specification = records(offer.priceSpecification)[0]
  const price = toPrice(offer.price) ?? toPrice(offer.lowPrice) ?? (specification ? toPrice(specification.price) : null)
  const rawCurrency = offer.priceCurrency ?? specification?.priceCurrency
  const currency = typeof rawCurrency === 'string' && rawCurrency.trim() ? rawCurrency.trim() : null
  const availability = typeof offer.availability === 'string' ? offer.availability.replace(SCHEMA_PREFIX, '') : null
  return { price, currency, currencyValid: currency !== null && /^[A-Z]{3}$/.test(currency), availability }
}

function toPrice(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value !== 'string') return null
  const normalised = value.trim().replace(/,(?=\d{3}\b)/g, '')
  return /^\d+(?:\.\d+)?$/.test(normalised) ? Number(normalised) : null
}

/** Sites wrap JSON-LD in HTML comments or CDATA sections to protect old parsers; both are harmless. */
function unwrap(text: string): string {
  return text
    .trim()
    .replace(/^(?:\/\*\s*|\/\/\s*)?<!\[CDATA\[(?:\s*\*\/)?/, '')
    .replace(/(?:\/\*\s*|\/\/\s*)?\]\]>(?:\s*\*\/)?$/, '')
    .replace(/^<!--/, '')
    .replace(/-->$/, '')
    .trim()
}

function mentionsSchemaOrg(context: unknown): boolean {
  return JSON.stringify(context ?? null)
    .toLowerCase()
    .includes('schema.org')
}

function walk(value: unknown, inheritedSchemaOrg: boolean, topLevel: boolean, out: JsonLdNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, inheritedSchemaOrg, topLevel, out)
    return
  }
  if (!isRecord(value)) return
  const schemaOrg = '@context' in value ? mentionsSchemaOrg(value['@context']) : inheritedSchemaOrg
  const types = typesOf(value)
  const graph = value['@graph']
  const isGraphContainer = Array.isArray(graph) && types.length === 0
  if (!isGraphContainer && (topLevel || types.length > 0)) {
    const rawTypes = JSON.stringify(value['@type'] ?? '')
    out.push({ types, schemaOrg: schemaOrg || /schema\.org/i.test(rawTypes), topLevel, value })
  }
  if (Array.isArray(graph)) walk(graph, schemaOrg, true, out)
  for (const [key, child] of Object.entries(value)) {
    if (key === '@context' || key === '@graph' || key === '@type') continue
    if (typeof child === 'object' && child !== null) walk(child, schemaOrg, false, out)
  }
}
