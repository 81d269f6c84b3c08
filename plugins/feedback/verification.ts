import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { Kernel } from '../../core/kernel.ts'
import { AppError } from '../../core/errors.ts'
import { FEEDBACK_ERRORS } from './errors.ts'
import { VERIFICATION_TTL_MS, type VerificationChallenge } from './model.ts'

export type { VerificationChallenge } from './model.ts'

const ITEM_COUNT = 40
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
/** The replay marker outlives the token by this much, so clock jitter cannot reopen a used token. */
const MARKER_SLACK_MS = 5_000
/** `<id>.<expiry in epoch ms>.<mac>`: 16 base64url characters of id, 13 digits, 43 base64url characters of HMAC. */
const TOKEN = /^([A-Za-z0-9_-]{16})\.(\d{13})\.([A-Za-z0-9_-]{43})$/

const STEPS = [
  '1. Split data.items into words (items of the letters a-z only) and numbers (items of the digits 0-9 only), each in its original order.',
  "2. Reverse the characters of every word, then sort the reversed words in ascending code-point order (JavaScript's default Array.prototype.sort).",
  '3. A = the first 16 characters of the lower-case hexadecimal SHA-256 digest of the sorted reversed words joined with "," (no spaces), as UTF-8.',
  '4. B = the sum of the numbers (as decimal integers) modulo data.modulus, written in decimal.',
  '5. C = the sum of the character codes of every letter of every word modulo data.modulus, written in decimal.',
  '6. D = the standard base64 encoding (with "=" padding) of the first three sorted reversed words joined with "-".',
  '7. The answer is A, B, C and D joined with ":" (for example "0a1b2c3d4e5f6a7b:123:4567:b2xsZWg=").',
] as const

/**
 * Agent verification as a reverse challenge: random data and exact transformations (sort, reverse, hash, sums,
 * base64) that a program solves in a millisecond and a person cannot do by hand in five minutes. Nothing is stored
 * when a challenge is issued: the token carries its id, its expiry and an HMAC binding both to the expected answer,
 * so checking an answer is recomputing that HMAC over the submitted answer. Only a successful answer writes state:
 * the one-time marker that refuses replays.
 */
export class AgentVerification {
  constructor(private readonly deps: Pick<Kernel, 'store' | 'secrets'>) {}

  async issue(): Promise<VerificationChallenge> {
    const key = await this.key()
    const data = randomData()
    const id = randomBytes(12).toString('base64url')
    const expiresAt = Date.now() + VERIFICATION_TTL_MS
    return {
      token: `${id}.${expiresAt}.${answerMac(key, id, expiresAt, expectedAnswer(data))}`,
      expiresAt: new Date(expiresAt).toISOString(),
      challenge: {
        instructions: `Compute the answer by applying the steps below, exactly, to data; then send this token as verificationToken and the answer as verificationAnswer with your feedback before ${new Date(expiresAt).toISOString()}. The token is accepted once.`,
        data,
        steps: [...STEPS],
      },
    }
  }

  /**
   * Resolves when the answer is right and the token is valid and unused, and uses the token up. Throws
   * AGENT_VERIFICATION_FAILED (401) otherwise, or VERIFICATION_UNAVAILABLE (503) when the key or the replay
   * marker cannot be reached.
   */
  async verify(token: string, answer: string): Promise<void> {
    const match = TOKEN.exec(token.trim())
    if (!match) throw failed('malformed', 'The verification token is malformed')
    const [, id = '', expiry = '', mac = ''] = match
    const expiresAt = Number(expiry)
    const remainingMs = expiresAt - Date.now()
    if (remainingMs <= 0) throw failed('expired', 'The verification token has expired; request a new challenge')
    const expected = Buffer.from(answerMac(await this.key(), id, expiresAt, answer.trim()), 'base64url')
    // A wrong answer and an altered token look the same here: the MAC only matches the issued token's own answer.
    if (!timingSafeEqual(Buffer.from(mac, 'base64url'), expected)) {
      throw failed('mismatch', 'The verification answer is wrong (or the token was altered)')
    }
    let first: boolean
    try {
      first = await this.deps.store.setIfAbsent(`verification:used:${id}`, '1', remainingMs + MARKER_SLACK_MS)
    } catch (error) {
      throw unavailable(error)
    }
    if (!first) throw failed('replayed', 'The verification token was already used; request a new challenge')
  }

  private async key(): Promise<Buffer> {
    try {
      return await this.deps.secrets.key('agent-verification')
    } catch (error) {
      throw unavailable(error)
    }
  }
}

/** The answer the steps produce; the test suite solves challenges with its own implementation of the steps. */
function expectedAnswer(data: VerificationChallenge['challenge']['data']): string {
  const words = data.items.filter((item) => /^[a-z]+$/.test(item))
  const numbers = data.items.filter((item) => /^[0-9]+$/.test(item)).map(Number)
  const reversed = words.map((word) => [...word].reverse().join('')).sort()
  const a = createHash('sha256').update(reversed.join(','), 'utf8').digest('hex').slice(0, 16)
  const b = numbers.reduce((sum, value) => sum + value, 0) % data.modulus
  const c = [...words.join('')].reduce((sum, char) => sum + char.charCodeAt(0), 0) % data.modulus
  const d = Buffer.from(reversed.slice(0, 3).join('-'), 'utf8').toString('base64')
  return `${a}:${b}:${c}:${d}`
}

/** 40 items in random order: 8-16 integers below 100000, the rest words of 3-9 letters (always 3 or more words). */
function randomData(): VerificationChallenge['challenge']['data'] {
  const numberCount = randomInt(8, 17)
  const items = Array.from({ length: ITEM_COUNT }, (_, index) =>
    index < numberCount
      ? String(randomInt(1, 100_000))
      : Array.from({ length: randomInt(3, 10) }, () => LETTERS.charAt(randomInt(LETTERS.length))).join(''),
  )
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
  return { items, modulus: randomInt(1000, 10_000) }
}

function answerMac(key: Buffer, id: string, expiresAt: number, answer: string): string {
  // Newline-separated: the id and expiry cannot contain one, so no two inputs share a MAC message.
  return createHmac('sha256', key).update(`agent-verification/v1\n${id}\n${expiresAt}\n${answer}`).digest('base64url')
}

type FailureReason = 'malformed' | 'expired' | 'mismatch' | 'replayed'

function failed(reason: FailureReason, message: string): AppError {
  return new AppError(FEEDBACK_ERRORS.AGENT_VERIFICATION_FAILED, { message, details: { reason } })
}

function unavailable(cause: unknown): AppError {
  return new AppError(FEEDBACK_ERRORS.VERIFICATION_UNAVAILABLE, {
    message: 'Agent verification is unavailable right now; retry shortly',
    cause,
  })
}
