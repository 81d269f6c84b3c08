import ipaddr from 'ipaddr.js'

/**
 * Which addresses the scanner may connect to. The outbound client refuses anything that is not `public`,
 * except that `private` addresses become reachable with SCANNER_ALLOW_PRIVATE (tests, intranets).
 * `forbidden` addresses are never a legitimate scan target, whatever the configuration: cloud metadata
 * services hand out credentials, and "unspecified", multicast and broadcast addresses are not hosts at all
 * (0.0.0.0 even reaches the local machine on Linux).
 */
export type AddressScope = 'public' | 'private' | 'forbidden'

export interface AddressClass {
  scope: AddressScope
  /** Short human reason, used in refusal messages: "loopback", "private address", "cloud metadata"… */
  reason: string
}

type Range = readonly [cidr: string, scope: Exclude<AddressScope, 'public'>, reason: string]

// First match wins, so specific entries (metadata services) precede the ranges that contain them.
const IPV4_RANGES: readonly Range[] = [
  ['169.254.169.254/32', 'forbidden', 'cloud metadata'], // AWS, GCP, Azure, Oracle, DigitalOcean
  ['169.254.170.2/32', 'forbidden', 'cloud metadata'], // AWS ECS task metadata
  ['100.100.100.200/32', 'forbidden', 'cloud metadata'], // Alibaba Cloud
  ['0.0.0.0/8', 'forbidden', 'unspecified address'],
  ['224.0.0.0/4', 'forbidden', 'multicast'],
  ['255.255.255.255/32', 'forbidden', 'broadcast'],
  ['10.0.0.0/8', 'private', 'private address'],
  ['172.16.0.0/12', 'private', 'private address'],
  ['192.168.0.0/16', 'private', 'private address'],
  ['127.0.0.0/8', 'private', 'loopback'],
  ['169.254.0.0/16', 'private', 'link-local'],
  ['100.64.0.0/10', 'private', 'carrier-grade NAT'],
  ['192.0.0.0/24', 'private', 'IETF protocol assignment'],
  ['192.0.2.0/24', 'private', 'documentation range'],
  ['198.51.100.0/24', 'private', 'documentation range'],
  ['203.0.113.0/24', 'private', 'documentation range'],
  ['198.18.0.0/15', 'private', 'benchmarking range'],
  ['192.88.99.0/24', 'private', 'reserved (former 6to4 relay)'],
  ['240.0.0.0/4', 'private', 'reserved'],
]

const IPV6_RANGES: readonly Range[] = [
  ['fd00:ec2::254/128', 'forbidden', 'cloud metadata'], // AWS IMDS over IPv6
  ['::/128', 'forbidden', 'unspecified address'],
  ['ff00::/8', 'forbidden', 'multicast'],
  // Teredo hides the client's IPv4 address behind an XOR, so what it really reaches cannot be vetted.
  ['2001::/32', 'forbidden', 'Teredo tunnel'],
  ['::1/128', 'private', 'loopback'],
  ['fe80::/10', 'private', 'link-local'],
  ['fc00::/7', 'private', 'unique-local address'],
  ['fec0::/10', 'private', 'site-local (deprecated)'],
  ['64:ff9b:1::/48', 'private', 'local-use NAT64'],
  ['100::/64', 'private', 'discard-only range'],
  ['2001:2::/48', 'private', 'benchmarking range'],
  ['2001:db8::/32', 'private', 'documentation range'],
  ['3fff::/20', 'private', 'documentation range'],
  ['2001:10::/28', 'private', 'ORCHID (not routable)'],
  ['2001:20::/28', 'private', 'ORCHIDv2 (not routable)'],
]

/**
 * IPv6 forms that carry an IPv4 address: connecting to them reaches (or is translated to) that IPv4
 * address, so they are judged by it. `offset` is the index of the first embedded byte.
 */
const IPV6_EMBEDDING: readonly (readonly [cidr: string, offset: number, form: string])[] = [
  ['::ffff:0:0/96', 12, 'IPv4-mapped'],
  ['::ffff:0:0:0/96', 12, 'IPv4-translated'],
  ['64:ff9b::/96', 12, 'NAT64'],
  ['2002::/16', 2, '6to4'],
  // IPv4-compatible (deprecated); :: and ::1 are matched by IPV6_RANGES before this is consulted.
  ['::/96', 12, 'IPv4-compatible'],
]

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3')

const parsedV4 = IPV4_RANGES.map(([cidr, scope, reason]) => ({ net: ipaddr.IPv4.parseCIDR(cidr), scope, reason }))
const parsedV6 = IPV6_RANGES.map(([cidr, scope, reason]) => ({ net: ipaddr.IPv6.parseCIDR(cidr), scope, reason }))
const parsedEmbedding = IPV6_EMBEDDING.map(([cidr, offset, form]) => ({
  net: ipaddr.IPv6.parseCIDR(cidr),
  offset,
  form,
}))

/** Classifies an address in any spelling `parseHostAsIp` accepts; anything that is not an address is forbidden. */
export function classifyAddress(ip: string): AddressClass {
  const canonical = parseHostAsIp(ip)
  if (canonical === null) return { scope: 'forbidden', reason: 'not an IP address' }
  const address = ipaddr.parse(canonical)
  return address instanceof ipaddr.IPv4 ? classifyV4(address) : classifyV6(address)
}

export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip).scope === 'public'
}

function classifyV4(address: ipaddr.IPv4): AddressClass {
  const range = parsedV4.find(({ net }) => address.match(net))
  return range ? { scope: range.scope, reason: range.reason } : { scope: 'public', reason: 'public address' }
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  const range = parsedV6.find(({ net }) => address.match(net))
  if (range) return { scope: range.scope, reason: range.reason }
  const embedding = parsedEmbedding.find(({ net }) => address.match(net))
  if (embedding) {
    const bytes = address.toByteArray().slice(embedding.offset, embedding.offset + 4)
    const inner = classifyV4(new ipaddr.IPv4(bytes))
    return inner.scope === 'public' ? inner : { scope: inner.scope, reason: `${inner.reason} (${embedding.form})` }
  }
  // Everything routable on the Internet is in 2000::/3; the rest of the space is unassigned or reserved.
  if (!address.match(GLOBAL_UNICAST_V6)) return { scope: 'private', reason: 'reserved' }
  return { scope: 'public', reason: 'public address' }
}

/**
 * Returns the canonical address when `host` is an IP address in any spelling a browser or libc accepts
 * (`2130706433`, `0177.0.0.1`, `0x7f.0.0.1`, `0x7f000001`, `127.1`, `[::ffff:127.0.0.1]`…), else null.
 * The scanner must judge such hosts as the address they denote, not as a name.
 */
export function parseHostAsIp(host: string): string | null {
  const trimmed = host.trim()
  if (trimmed.includes(':')) return parseIpv6(trimmed.replace(/^\[(.*)\]$/, '$1'))
  return parseIpv4(trimmed)
}

/** The WHATWG URL IPv4 parser (the same forms inet_aton accepts): 1 to 4 parts, decimal, octal or hex. */
function parseIpv4(host: string): string | null {
  const parts = host.split('.')
  // A single trailing dot is allowed, as in a fully qualified name.
  if (parts.length > 1 && parts.at(-1) === '') parts.pop()
  if (parts.length === 0 || parts.length > 4) return null
  const numbers: number[] = []
  for (const part of parts) {
    const value = parseIpv4Number(part)
    if (value === null) return null
    numbers.push(value)
  }
  const last = numbers.pop()!
  if (numbers.some((value) => value > 255)) return null
  // The last part fills all the bytes the earlier parts left: `127.1` is 127.0.0.1, `10.1.1` is 10.1.0.1.
  if (last >= 256 ** (4 - numbers.length)) return null
  let value = last
  numbers.forEach((octet, index) => {
    value += octet * 256 ** (3 - index)
  })
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.')
}

function parseIpv4Number(part: string): number | null {
  let digits = part
  let radix = 10
  if (/^0x/i.test(part)) {
    digits = part.slice(2)
    radix = 16
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1)
    radix = 8
  }
  // `0x` alone is zero for the URL parser.
  if (digits === '') return radix === 10 ? null : 0
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/
  if (!pattern.test(digits)) return null
  const value = parseInt(digits, radix)
  return value <= 0xffffffff ? value : null
}

/**
 * IPv6 goes through the URL host parser: it knows every compression and embedded-IPv4 form, and
 * ipaddr.js misreads `::a.b.c.d` as IPv4-mapped.
 */
function parseIpv6(inner: string): string | null {
  try {
    const hostname = new URL(`http://[${inner}]/`).hostname
    return hostname.slice(1, -1)
  } catch {
    return null
  }
}
