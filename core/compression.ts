import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { Elysia } from 'elysia'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** Below this a compressed body saves less than the headers it adds. */
const MIN_BYTES = 1024

/** Text worth compressing; event streams are excluded because they must reach the client frame by frame. */
const COMPRESSIBLE =
  /^(text\/(?!event-stream)|application\/(json|[a-z.+-]+\+json|javascript|xml|[a-z.+-]+\+xml)|image\/svg\+xml)/i

type Coding = 'br' | 'gzip'

/** The coding a client takes: brotli over gzip, honouring `q=0` refusals (RFC 9110 §12.5.3). */
export function preferredCoding(acceptEncoding: string | null): Coding | null {
  const accepted = new Map<string, number>()
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (!name) continue
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined)
    accepted.set(name.trim(), q === undefined ? 1 : Number(q))
  }
  const takes = (coding: string) => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0
  return takes('br') ? 'br' : takes('gzip') ? 'gzip' : null
}

/** A response compressed for the request, or the same response when compression does not apply. */
export async function compress(request: Request, response: Response): Promise<Response> {
  if (
    request.method === 'HEAD' ||
    !response.body ||
    response.status === 204 ||
    response.status === 206 ||
    response.status === 304
  )
    return response
  if (response.headers.has('content-encoding') || !COMPRESSIBLE.test(response.headers.get('content-type') ?? ''))
    return response
  // The answer depends on Accept-Encoding whether or not this client takes a coding, so caches must know.
  const headers = new Headers(response.headers)
  headers.append('vary', 'Accept-Encoding')
  const coding = preferredCoding(request.headers.get('accept-encoding'))
  if (!coding) return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  const body = new Uint8Array(await response.arrayBuffer())
  if (body.byteLength < MIN_BYTES)
    return new Response(body, { status: response.status, statusText: response.statusText, headers })
  // Quality 5 keeps brotli at gzip's speed with a smaller result; pages are rendered per request.
  const compressed =
    coding === 'br' ? await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : await gzipAsync(body)
  headers.set('content-encoding', coding)
  headers.delete('content-length')
  // The encoded bytes differ from the identity ones, so a strong validator becomes weak (RFC 9110 §8.8.3).
  const etag = headers.get('etag')
  if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`)
  return new Response(compressed, { status: response.status, statusText: response.statusText, headers })
}

/**
 * gzip/brotli for HTML, CSS, JavaScript, JSON, Markdown and other text, wrapped around the whole app (errors and
 * cached reads included) rather than hooked per route, because hooks do not see every answer.
 */
export function compressionPlugin() {
  return new Elysia({ name: 'compression' }).wrap((handle, request) => {
    const answer = handle as unknown as (...args: unknown[]) => Response | Promise<Response>
    return (async (...args: unknown[]) => compress(request, await answer(...args))) as never
  })
}
