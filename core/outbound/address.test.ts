import { describe, expect, test } from 'bun:test'
import { classifyAddress, isPublicAddress, parseHostAsIp } from './address.ts'

/** Hostile targets: every one must be refused, in whatever spelling it arrives. */
const HOSTILE: [target: string, why: string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback (whole /8)'],
  ['10.0.0.5', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12 (start)'],
  ['172.31.255.255', 'private 172.16/12 (end)'],
  ['192.168.1.1', 'private 192.168/16'],
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'cloud metadata'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.100.100.200', 'Alibaba metadata inside CGNAT'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this-network 0/8'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast (SSDP)'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved class E'],
  ['192.0.2.10', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['198.18.0.1', 'benchmarking'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['::1', 'IPv6 loopback'],
  ['[::1]', 'bracketed IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['fe80::1', 'IPv6 link-local'],
  ['febf::1', 'IPv6 link-local (end of fe80::/10)'],
  ['fc00::1', 'unique-local fc00::/7'],
  ['fd12:3456::1', 'unique-local fd00::/8'],
  ['fd00:ec2::254', 'AWS IPv6 metadata'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['[::ffff:169.254.169.254]', 'IPv4-mapped metadata'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['0:0:0:0:0:ffff:c0a8:101', 'IPv4-mapped 192.168.1.1, uncompressed'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 embedding a private address'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 embedding the metadata address'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:7f00:1::1', '6to4 embedding loopback'],
  ['2002:c0a8:101::1', '6to4 embedding 192.168.1.1'],
  ['2001:0:4136:e378::1', 'Teredo'],
  ['2130706433', 'decimal 127.0.0.1'],
  ['0177.0.0.1', 'octal 127.0.0.1'],
  ['0x7f.0.0.1', 'hex first octet'],
  ['0x7f000001', 'one hex number'],
  ['017700000001', 'one octal number'],
  ['127.1', 'short form a.b'],
  ['10.1.1', 'short form a.b.c'],
  ['0xA9.0xFE.0xA9.0xFE', 'hex metadata'],
  ['2852039166', 'decimal metadata'],
  ['0', 'a bare zero'],
  ['127.0.0.1.', 'trailing dot'],
  ['not-an-ip', 'a name is not an address'],
]

describe('isPublicAddress', () => {
  test.each(HOSTILE)('refuses %s (%s)', (target) => {
    expect(isPublicAddress(target)).toBe(false)
  })

  test.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.215.14'],
    ['172.15.255.255'],
    ['172.32.0.1'],
    ['100.63.255.255'],
    ['100.128.0.1'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:81c::200e'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('accepts public %s', (target) => {
    expect(isPublicAddress(target)).toBe(true)
  })
})

describe('classifyAddress', () => {
  test('metadata, unspecified, multicast and broadcast are forbidden outright; private ranges are private', () => {
    for (const ip of ['169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255']) {
      expect(classifyAddress(ip).scope).toBe('forbidden')
    }
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.1', 'fe80::1', 'fd12::1', '100.64.0.1']) {
      expect(classifyAddress(ip).scope).toBe('private')
    }
  })

  test('embedded IPv4 addresses are judged by the address they carry, and the reason says how', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toEqual({ scope: 'private', reason: 'loopback (IPv4-mapped)' })
    expect(classifyAddress('64:ff9b::10.0.0.1')).toEqual({ scope: 'private', reason: 'private address (NAT64)' })
    expect(classifyAddress('2002:a9fe:a9fe::1')).toEqual({ scope: 'forbidden', reason: 'cloud metadata (6to4)' })
  })

  test('reasons name the range', () => {
    expect(classifyAddress('10.0.0.5').reason).toBe('private address')
    expect(classifyAddress('100.64.1.1').reason).toBe('carrier-grade NAT')
    expect(classifyAddress('169.254.169.254').reason).toBe('cloud metadata')
  })
})

describe('parseHostAsIp', () => {
  test.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0X7F.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1.1', '10.1.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['0x', '0.0.0.0'],
    ['127.0.0.1.', '127.0.0.1'],
    ['8.8.8.8', '8.8.8.8'],
    ['[::1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['::127.0.0.1', '::7f00:1'],
    ['FE80::0:1', 'fe80::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
  ])('%s is %s', (host, canonical) => {
    expect(parseHostAsIp(host)).toBe(canonical)
  })

  test.each([
    ['example.com'],
    ['localhost'],
    ['1.2.3.4.5'],
    ['256.1.1.1'],
    ['1.2.3.256'],
    ['4294967296'],
    ['08.1.1.1'],
    ['0x7g.1'],
    ['127.0.0.1.example'],
    [''],
    ['[not:an:address]'],
  ])('%s is not an address', (host) => {
    expect(parseHostAsIp(host)).toBeNull()
  })

  test('agrees with the URL parser on every numeric spelling', () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.0.0.1', '0x7f000001', '127.1', '10.1.1', '0300.0250.1']) {
      expect(parseHostAsIp(host)).toBe(new URL(`http://${host}/`).hostname)
    }
  })
})
