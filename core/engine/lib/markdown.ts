/**
 * Markdown as agents read it: the llms.txt outline (llmstxt.org), absolute URLs written in a text, and YAML
 * frontmatter.
 */
import { parseBoundedYaml } from '../../parse/bounded.ts'
import { isRecord } from '../snapshot.ts'

export interface MarkdownOutline {
  /** The first non-blank line is a level-1 heading. */
  startsWithH1: boolean
  /** Text of the first H1 anywhere outside code blocks. */
  h1: string | null
  /** A `>` blockquote outside code blocks. */
  blockquote: boolean
  /** `[text](url)` links outside code blocks, with the H2 they sit under. */
  links: { text: string; url: string; section: string | null }[]
  /** H2 sections and how many list items with a link each holds. */
  sections: { title: string; linkItems: number }[]
}

const MARKDOWN_LINK = /\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
/** Characters of a markdown document outlined (llms.txt is judged over 1 MiB anyway); the rest is not read. */
export const MAX_MARKDOWN_CHARS = 1024 * 1024
/** Links and sections an outline keeps. */
export const MAX_MARKDOWN_LINKS = 10_000

/**
 * Outlines a markdown document the way llmstxt.org describes llms.txt (H1, blockquote, H2 link lists), over its
 * first MAX_MARKDOWN_CHARS characters, keeping at most MAX_MARKDOWN_LINKS links and as many sections.
 */
export function outlineMarkdown(body: string): MarkdownOutline {
  const outline: MarkdownOutline = { startsWithH1: false, h1: null, blockquote: false, links: [], sections: [] }
  let inFence = false
  let seenContent = false
  let section: MarkdownOutline['sections'][number] | null = null
  for (const rawLine of body.slice(0, MAX_MARKDOWN_CHARS).split(/\r\n|\r|\n/)) {
    const line = rawLine.trim()
    if (/^(```|~~~)/.test(line)) {
      inFence = !inFence
      seenContent = true
      continue
    }
    if (inFence || line === '') continue
    const h1 = /^#\s+(.+?)\s*#*$/.exec(line)
    if (!seenContent) outline.startsWithH1 = h1 !== null
    seenContent = true
    if (h1) {
      outline.h1 ??= h1[1]!
      continue
    }
    const h2 = /^##\s+(.+?)\s*#*$/.exec(line)
    if (h2) {
      section = { title: h2[1]!, linkItems: 0 }
      if (outline.sections.length < MAX_MARKDOWN_LINKS) outline.sections.push(section)
      continue
    }
    if (line.startsWith('>')) outline.blockquote = true
    let found = false
    for (const match of line.matchAll(MARKDOWN_LINK)) {
      if (outline.links.length < MAX_MARKDOWN_LINKS)
        outline.links.push({ text: match[1]!, url: match[2]!, section: section?.title ?? null })
      found = true
    }
    if (found && section && /^([-*+]|\d+\.)\s/.test(line)) section.linkItems += 1
  }
  return outline
}

/** Absolute http(s) URLs written anywhere in a text (code blocks and JSON configuration included), the first `limit`. */
export function absoluteUrlsIn(text: string, limit = MAX_MARKDOWN_LINKS): string[] {
  const urls: string[] = []
  for (const match of text.matchAll(/https?:\/\/[^\s"'`<>()[\]{},\\]+/g)) {
    if (urls.length === limit) break
    urls.push(match[0].replace(/[.;:!?]+$/, ''))
  }
  return urls
}

/**
 * YAML frontmatter (`---` … `---` at the very start), parsed within the YAML bounds; null when there is none, it is
 * not a mapping, or it is over a bound.
 */
export function parseFrontmatter(body: string): Record<string, unknown> | null {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(\r?\n|$)/.exec(body)
  if (!match) return null
  try {
    const value: unknown = parseBoundedYaml(match[1]!)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}
