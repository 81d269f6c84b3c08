import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { AppError } from '../../core/errors.ts'
import { ARD_ERRORS } from './errors.ts'

const tokenPayload = z.object({ o: z.number().int().min(0), q: z.string() })

/**
 * Opaque, tamper-evident page tokens: base64url(JSON {o: offset, q: query digest}) "." HMAC-SHA256 over that
 * text. The key is derived (HKDF) from the database-held service secret, so every instance issues and accepts
 * the same tokens across restarts. The MAC is compared as text, so even a change in a base64 padding bit is
 * refused; the digest binds a token to the query (and route) it was issued for.
 */
export class PageTokens {
  constructor(private readonly key: () => Promise<Buffer>) {}

  async issue(scope: string, offset: number): Promise<string> {
    const payload = Buffer.from(JSON.stringify({ o: offset, q: scope })).toString('base64url')
    return `${payload}.${await this.mac(payload)}`
  }

  /** The offset a token carries; 0 without a token. Throws INVALID_ARGUMENT for a tampered or foreign token. */
  async offset(token: string | undefined, scope: string): Promise<number> {
    if (token === undefined) return 0
    const parts = token.split('.')
    const [payload, mac] = parts
    if (parts.length !== 2 || !payload || !mac || !(await this.verify(payload, mac))) {
      throw invalidToken('pageToken is not valid: it was altered, has expired or was not issued by this registry')
    }
    const parsed = tokenPayload.safeParse(parseJson(Buffer.from(payload, 'base64url').toString('utf8')))
    if (!parsed.success) throw invalidToken('pageToken is not valid')
    if (parsed.data.q !== scope)
      throw invalidToken('pageToken was issued for a different query; send the same query or no token')
    return parsed.data.o
  }

  private async verify(payload: string, mac: string): Promise<boolean> {
    const expected = Buffer.from(await this.mac(payload))
    const presented = Buffer.from(mac)
    return expected.length === presented.length && timingSafeEqual(expected, presented)
  }

  private async mac(payload: string): Promise<string> {
    return createHmac('sha256', await this.key())
      .update(`ard-page-token:v1:${payload}`)
      .digest('base64url')
  }
}

function invalidToken(message: string): AppError {
  return new AppError(ARD_ERRORS.INVALID_ARGUMENT, { message, details: { parameter: 'pageToken' } })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** A digest of the canonical query: what a page token is bound to. Page size is not part of it. */
export function queryScope(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 22)
}
