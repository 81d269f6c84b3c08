import type { LookupAddress } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import type { Config } from '../config.ts'
import { classifyAddress, parseHostAsIp } from './address.ts'

/**
 * The one address policy for every connection a scan causes, made by the outbound client or by the browser's
 * egress proxy: apply SCANNER_RESOLVE, resolve once, refuse the lot if any address is not `public` (or `private`
 * with SCANNER_ALLOW_PRIVATE), and hand back the checked addresses so the caller connects to exactly those.
 */

export interface CheckedDestination {
  /** Where the bytes go: the host itself, or the address a SCANNER_RESOLVE rule maps it to. */
  connectHost: string
  port: number
  /** Every address checked; connect to these and nothing else. */
  addresses: LookupAddress[]
  /** True when a SCANNER_RESOLVE rule applied (the mapped service speaks plain http). */
  mapped: boolean
  label: string
}

export class EgressRefusal extends Error {
  override readonly name = 'EgressRefusal'
  constructor(
    readonly code: 'BLOCKED_ADDRESS' | 'DNS_FAILURE' | 'INVALID_DESTINATION',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause })
  }
}

/** Checks `host:port` (a hostname, an IP literal in any spelling, or a bracketed IPv6 address) against the policy. */
export async function checkDestination(
  scanner: Pick<Config['scanner'], 'allowPrivate' | 'resolve'>,
  rawHost: string,
  port: number,
  signal?: AbortSignal,
): Promise<CheckedDestination> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new EgressRefusal('INVALID_DESTINATION', `${rawHost}:${port} is not a valid destination`)
  }
  const host = rawHost
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
  if (host === '') throw new EgressRefusal('INVALID_DESTINATION', 'empty host')
  const rule = scanner.resolve.find((candidate) => candidate.host === host && candidate.port === port)
  const connectHost = rule ? rule.address : host
  const connectPort = rule ? rule.addressPort : port
  const label = rule ? `${host} (mapped to ${rule.address} by SCANNER_RESOLVE)` : host

  const literal = parseHostAsIp(connectHost)
  let addresses: LookupAddress[]
  if (literal !== null) {
    addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }]
  } else {
    try {
      addresses = await abortable(dnsLookup(connectHost, { all: true }), signal)
    } catch (error) {
      if (signal?.aborted) throw error
      throw new EgressRefusal('DNS_FAILURE', `could not resolve ${label}: ${errorText(error)}`, { cause: error })
    }
    if (addresses.length === 0) throw new EgressRefusal('DNS_FAILURE', `${label} has no addresses`)
  }
  for (const { address } of addresses) {
    const { scope, reason } = classifyAddress(address)
    if (scope === 'public' || (scope === 'private' && scanner.allowPrivate)) continue
    const hint =
      scope === 'private'
        ? ': set SCANNER_ALLOW_PRIVATE=true to scan private networks'
        : ' (never allowed, whatever the configuration)'
    throw new EgressRefusal('BLOCKED_ADDRESS', `refused ${address} (${reason}) for ${label}${hint}`)
  }
  return { connectHost, port: connectPort, addresses, mapped: rule !== undefined, label }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  // Already aborted: the promise is dropped, and its rejection (a failed lookup) must not go unhandled.
  if (signal.aborted) {
    promise.catch(() => {})
    throw signal.reason
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** An error's message, led by its code (ECONNREFUSED, ENOTFOUND) when the message does not already say it. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && !error.message.includes(code) ? `${code}: ${error.message}` : error.message
}
