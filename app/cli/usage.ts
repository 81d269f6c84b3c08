import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'

/** Exit codes a CI gate can tell apart. */
export const EXIT_PASS = 0
export const EXIT_GATE_FAILED = 1
export const EXIT_USAGE = 2

/** A mistake in the command line: one line, then a hint naming the help to read, never a stack trace (exit 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage of the command at fault (its first line names the command); the general one when absent. */
    readonly usage?: string,
  ) {
    super(message)
  }
}

/** The target (or the server scanning it) could not be scanned: one line, then the exit code (2 unless said). */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message)
  }
}

/** Where an option's description starts in a command's usage, and the width no usage line goes past. */
const DESCRIPTION_COLUMN = 25
const USAGE_WIDTH = 100

/**
 * An option's lines in a command's usage: the description wrapped at USAGE_WIDTH, each line continuing under the
 * description column. For descriptions built from a registry (the intents a journey takes), whose length varies.
 */
export function optionLines(option: string, description: string): string {
  const lines: string[] = []
  let line = `  ${option}`.padEnd(DESCRIPTION_COLUMN - 1)
  for (const word of description.split(' ')) {
    if (line.length >= DESCRIPTION_COLUMN && line.length + 1 + word.length > USAGE_WIDTH) {
      lines.push(line)
      line = ' '.repeat(DESCRIPTION_COLUMN - 1)
    }
    line += ` ${word}`
  }
  return [...lines, line].join('\n')
}

/** `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

/** `see agent-readiness scan --help` for a command's usage, `see agent-readiness --help` otherwise. */
export function usageHint(usage: string | undefined): string {
  const command = usage?.match(/^agent-readiness ([a-z][\w-]*)/)?.[1]
  return `see agent-readiness ${command ? `${command} ` : ''}--help`
}

/** Levenshtein distance, for "did you mean": option names are short, so the quadratic table is nothing. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}

/**
 * node:util's parseArgs, with its complaints put in our words: an unknown option is named (with the closest
 * known one when it looks like a typo), an option missing its value or given one it does not take says so.
 * Options keep parseArgs' declaration shape, so a command adds one by adding a line to its table.
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(args: string[], options: T, usage?: string) {
  // A lenient pass first: it never throws, and its tokens say exactly what was typed.
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
  const known = Object.keys(options)
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = options[token.name]
    if (!option) {
      // A typo, or a known option with a word too many or too few (`--server-url`, `--save`).
      const close = (name: string) => distance(name, token.name) <= Math.max(1, Math.floor(name.length / 4))
      const extended = (name: string) =>
        Math.min(name.length, token.name.length) >= 4 && (token.name.startsWith(name) || name.startsWith(token.name))
      const near = known.filter(close).concat(known.filter(extended))
      const suggestion = near.length > 0 ? ` (did you mean --${near[0]}?)` : ''
      throw new UsageError(`${token.rawName} is not an option of this command${suggestion}`, usage)
    }
    if (option.type === 'boolean' && token.value !== undefined)
      throw new UsageError(`${token.rawName} takes no value`, usage)
    // A value that is itself one of our options means the value was left out (`--min-score --quiet`).
    const swallowed =
      !token.inlineValue &&
      token.value?.startsWith('-') &&
      known.includes(token.value.replace(/^--?/, '').split('=')[0]!)
    if (option.type === 'string' && (token.value === undefined || swallowed))
      throw new UsageError(`${token.rawName} needs a value`, usage)
  }
  return parseArgs({ args, options, strict: true, allowPositionals: true })
}
