import { AppError } from '../errors.ts'

/** Bodies larger than this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024

export const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', { message: `The body limit is ${MAX_BODY_BYTES} bytes` })

/** onRequest: a declared length over the cap is refused before anything reads the body. */
export function declaresTooLarge(request: Request): boolean {
  return Number(request.headers.get('content-length') ?? 0) > MAX_BODY_BYTES
}

/** The body as text, read under the cap: a chunked body has no Content-Length to refuse up front. */
export async function readCapped(request: Request): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_BODY_BYTES) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
