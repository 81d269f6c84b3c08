import type { ReportCheck, ReportModel } from '../../../core/report/index.ts'
import { rowLabel } from '../baseline.ts'
import type { Gate } from '../gate.ts'
import { type CliCheck, type CliReport, countsAgainst, extraKind } from '../report.ts'

/** What every format is rendered with besides the report. */
export interface RenderOptions {
  gate: Gate
  /** ANSI colour (the text format on a terminal that wants it). */
  color: boolean
}

/** Text report lines fit this many columns, so that a CI log or an 80-100 column terminal never wraps them. */
export const WIDTH = 100

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36 } as const
export type Tone = keyof typeof CODES

/** Paints text when colour is on; the visible width is unchanged either way. */
export type Paint = (tone: Tone, text: string) => string

export const painter = (color: boolean): Paint =>
  color ? (tone, text) => `\x1b[${CODES[tone]}m${text}\x1b[0m` : (_tone, text) => text

/** Visible columns of a line: escape sequences take none, and a scanned site's text may hold any character. */
export const columns = (text: string): number => [...text.replace(/\x1b\[[0-9;]*m/g, '')].length

/**
 * Breaks plain text into lines of at most `width` columns, after `first` on the first line and `indent` on the
 * others; a word longer than a line (a URL) is cut. Control characters from a scanned site become spaces.
 */
export function wrap(
  text: string,
  options: { first: string; indent: string; width?: number; maxLines?: number },
): string[] {
  const width = options.width ?? WIDTH
  const words = text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .split(' ')
    .filter(Boolean)
  const lines: string[] = []
  let line = options.first
  let empty = true
  const room = () => width - columns(line)
  for (let word of words) {
    const space = empty ? 0 : 1
    if ([...word].length + space <= room()) {
      line += (empty ? '' : ' ') + word
      empty = false
      continue
    }
    if (!empty) {
      lines.push(line)
      line = options.indent
      empty = true
    }
    while ([...word].length > room()) {
      const chars = [...word]
      lines.push(line + chars.slice(0, room()).join(''))
      word = chars.slice(room()).join('')
      line = options.indent
    }
    line += word
    empty = word.length === 0
  }
  if (!empty || lines.length === 0) lines.push(line)
  const max = options.maxLines ?? Infinity
  if (lines.length <= max) return lines
  const kept = lines.slice(0, max)
  // Colour codes sit in the prefixes only, so the end of a line is plain text that can lose a character.
  const last = kept[max - 1]!
  kept[max - 1] = `${columns(last) < width ? last : [...last].slice(0, -1).join('')}…`
  return kept
}

/**
 * The model's issues (failing checks after the top fixes, by impact) in the two groups the text and Markdown
 * formats show apart: what lowers the score, then what never does (extras not met, checks that could not run),
 * each of the latter with its kind. The model does not carry maturity and beta, so the CLI rows decide.
 */
export function splitIssues(
  report: CliReport,
  model: ReportModel,
): { lowering: ReportCheck[]; unscored: { check: ReportCheck; kind: string }[] } {
  const rows = new Map<string, CliCheck>(
    report.layers.flatMap((layer) => layer.checks).map((row) => [rowLabel(row), row]),
  )
  const row = (check: ReportCheck) => rows.get(rowLabel(check))!
  const lowering = model.issues.filter((check) => check.status !== 'error' && countsAgainst(row(check)))
  const unscored = model.issues
    .filter((check) => !lowering.includes(check))
    .map((check) => ({
      check,
      kind: check.status === 'error' ? 'could not run' : (extraKind(row(check)) ?? check.status),
    }))
  return { lowering, unscored }
}
