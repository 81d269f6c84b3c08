/** How the discovery collectors fetch optional documents: the request headers, and a failed fetch as a value. */
import { CollectorError } from '../../check.ts'
import { acceptFor } from '../../lib/media-types.ts'
import type { HttpSnapshot } from '../../snapshot.ts'

/** The Origin sent with public metadata fetches, so that servers with dynamic CORS show their headers. */
const PROBE_ORIGIN = 'https://agent.example'

/** Request headers for a discovery document of a given media type. */
export function discoveryHeaders(type: string | undefined): Record<string, string> {
  return { accept: acceptFor(type), origin: PROBE_ORIGIN }
}

/** For `.catch()` on optional fetches and artifacts: a CollectorError becomes null, anything else is a bug. */
export function nullOnCollectorError(error: unknown): null {
  if (error instanceof CollectorError) return null
  throw error
}

export type Settled = { response: HttpSnapshot; error?: undefined } | { response: null; error: string }

/** Awaits an optional fetch: a CollectorError (DNS, timeout, refused) is recorded as `error`, not thrown. */
export async function settle(pending: Promise<HttpSnapshot>): Promise<Settled> {
  try {
    return { response: await pending }
  } catch (error) {
    if (error instanceof CollectorError) return { response: null, error: error.message }
    throw error
  }
}
