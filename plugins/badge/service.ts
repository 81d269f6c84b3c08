import { normalizeInput } from '../../core/engine/target.ts'
import { GRADE_COLORS, type Grade, gradeFor } from '../../core/engine/scoring.ts'
import { AppError } from '../../core/errors.ts'
import { mcpTargetOn, type ScanRepository } from '../scan/public.ts'
import { publicCache } from '../../core/caching.ts'

export interface Badge {
  svg: string
  cacheControl: string
}

/**
 * The badge of a domain's latest measured scan (a partial one has a score too). Ephemeral and partial results are
 * `no-store`, like the score route: one is disposable, the other changes within minutes.
 */
/** A complete score changes only with the next scan; README images are fetched on every view. */
export const BADGE_CACHE_SECONDS = 3600

export async function badgeFor(scans: ScanRepository, input: string, mcpUrl?: string): Promise<Badge> {
  const { domain } = normalizeInput(input)
  // A host's MCP server has a report of its own (plugins/scan/target.ts), and so a badge of its own.
  const row = mcpUrl ? await scans.latestOf(mcpTargetOn(domain, mcpUrl)) : await scans.latest(domain)
  if (!row || row.score === null) throw new AppError('NOT_FOUND', { message: `${domain} has no score yet` })
  return {
    svg: renderBadge({ domain, score: row.score, grade: gradeFor(row.score) }),
    cacheControl: row.ephemeral || row.analysisStatus === 'partial' ? 'no-store' : publicCache(BADGE_CACHE_SECONDS),
  }
}

const LABEL = 'agent-ready'
const HEIGHT = 20
/** Space between a text and the edges of its half. */
const PADDING = 6
const FONT_SIZE = 11

/**
 * Advance widths in px of Verdana at 11px (the badge font), for the characters a badge can show. Anything else is
 * counted as a full em, wider than nearly any glyph, so an estimate never comes out short.
 */
const VERDANA_11: Record<string, number> = {
  ' ': 3.9,
  '+': 9,
  '-': 5,
  '.': 4,
  ':': 5,
  '/': 5,
  '(': 5,
  ')': 5,
  ...Object.fromEntries([...'0123456789'].map((digit) => [digit, 7])),
  A: 7.5,
  B: 7.6,
  C: 7.7,
  D: 8.5,
  E: 7,
  F: 6.4,
  G: 8.6,
  H: 8.3,
  I: 4.7,
  J: 5,
  K: 7.7,
  L: 6.2,
  M: 9.3,
  N: 8.3,
  O: 8.7,
  P: 6.7,
  Q: 8.7,
  R: 7.7,
  S: 7.6,
  T: 6.8,
  U: 8.1,
  V: 7.6,
  W: 10.9,
  X: 7.6,
  Y: 6.8,
  Z: 7.6,
  a: 6.7,
  b: 6.9,
  c: 5.8,
  d: 6.9,
  e: 6.6,
  f: 3.9,
  g: 6.9,
  h: 7,
  i: 3.1,
  j: 3.8,
  k: 6.6,
  l: 3.1,
  m: 10.7,
  n: 7,
  o: 6.7,
  p: 6.9,
  q: 6.9,
  r: 4.7,
  s: 5.8,
  t: 4.4,
  u: 7,
  v: 6.6,
  w: 9,
  x: 6.6,
  y: 6.6,
  z: 5.8,
}

/** The rendered width of `text` in the badge font, rounded up to a whole pixel. */
export function textWidth(text: string): number {
  return Math.ceil([...text].reduce((sum, character) => sum + (VERDANA_11[character] ?? FONT_SIZE), 0))
}

/**
 * A flat two-part badge in the style of shields.io: a grey "agent-ready" label and "<score> <grade>" on the grade
 * colour. Each text also carries `textLength`, so a renderer whose font runs wider than the estimate squeezes it
 * into its box instead of overflowing.
 */
export function renderBadge(input: { domain: string; score: number; grade: Grade }): string {
  const value = `${input.score} ${input.grade}`
  const title = `${input.domain}: agent-readiness score ${input.score} of 100, grade ${input.grade}`
  const labelText = textWidth(LABEL)
  const valueText = textWidth(value)
  const labelWidth = labelText + 2 * PADDING
  const valueWidth = valueText + 2 * PADDING
  const width = labelWidth + valueWidth
  const text = (content: string, center: number, length: number) =>
    `<text x="${center}" y="15" fill="#010101" fill-opacity=".3" textLength="${length}" aria-hidden="true">${escapeXml(content)}</text>` +
    `<text x="${center}" y="14" textLength="${length}">${escapeXml(content)}</text>`
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${width}" height="${HEIGHT}" rx="3" fill="#fff"/></clipPath>`,
    '<g clip-path="url(#r)">',
    `<rect width="${labelWidth}" height="${HEIGHT}" fill="#555"/>`,
    `<rect x="${labelWidth}" width="${valueWidth}" height="${HEIGHT}" fill="${GRADE_COLORS[input.grade]}"/>`,
    `<rect width="${width}" height="${HEIGHT}" fill="url(#s)"/>`,
    '</g>',
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="${FONT_SIZE}">`,
    text(LABEL, labelWidth / 2, labelText),
    text(value, labelWidth + valueWidth / 2, valueText),
    '</g>',
    '</svg>',
  ].join('')
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XML_ENTITIES[character]!)
}
