import { describe, expect, test } from 'bun:test'
import { ScanError } from './scan-error.ts'
import { normalizeInput } from './target.ts'

describe('normalizeInput', () => {
  test.each([
    [
      'example.com',
      { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/', hasPath: false },
    ],
    [
      '  Example.COM.  ',
      { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/', hasPath: false },
    ],
    [
      'https://shop.example.com/',
      {
        domain: 'shop.example.com',
        origin: 'https://shop.example.com',
        url: 'https://shop.example.com/',
        hasPath: false,
      },
    ],
    [
      'http://example.com/#top',
      { domain: 'example.com', origin: 'http://example.com', url: 'http://example.com/', hasPath: false },
    ],
    [
      'https://api.example.com/mcp',
      {
        domain: 'api.example.com',
        origin: 'https://api.example.com',
        url: 'https://api.example.com/mcp',
        hasPath: true,
      },
    ],
    [
      'https%3A%2F%2Fexample.com%2Fmcp',
      { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/mcp', hasPath: true },
    ],
    [
      'bücher.example',
      {
        domain: 'xn--bcher-kva.example',
        origin: 'https://xn--bcher-kva.example',
        url: 'https://xn--bcher-kva.example/',
        hasPath: false,
      },
    ],
    [
      'example.com:8443',
      { domain: 'example.com', origin: 'https://example.com:8443', url: 'https://example.com:8443/', hasPath: false },
    ],
  ])('%s', (input, expected) => {
    expect(normalizeInput(input)).toEqual(expected)
  })

  test.each([
    [''],
    ['localhost'],
    ['ftp://example.com'],
    ['https://user:pass@example.com'],
    ['exa mple.com'],
    ['-bad-.example.com'],
    ['example.123'],
    ['javascript:alert(1)'],
    [`${'x'.repeat(3000)}.com`],
  ])(
    'refuses %# as an invalid target (the edge answers 400 INVALID_DOMAIN: tests/scan-error-response.test.ts)',
    (input) => {
      try {
        normalizeInput(input)
        throw new Error('expected a refusal')
      } catch (error) {
        expect(error).toBeInstanceOf(ScanError)
        expect((error as ScanError).reason).toBe('invalid-target')
      }
    },
  )
})

describe('normalizeInput with local targets allowed (SCANNER_ALLOW_PRIVATE, the CLI --allow-private)', () => {
  test.each([
    [
      'http://localhost:3000',
      { domain: 'localhost', origin: 'http://localhost:3000', url: 'http://localhost:3000/', hasPath: false },
    ],
    [
      'localhost:3000',
      { domain: 'localhost', origin: 'http://localhost:3000', url: 'http://localhost:3000/', hasPath: false },
    ],
    [
      'app.localhost',
      { domain: 'app.localhost', origin: 'http://app.localhost', url: 'http://app.localhost/', hasPath: false },
    ],
    [
      '127.0.0.1:8080',
      { domain: '127.0.0.1', origin: 'http://127.0.0.1:8080', url: 'http://127.0.0.1:8080/', hasPath: false },
    ],
    ['http://[::1]:5173', { domain: '[::1]', origin: 'http://[::1]:5173', url: 'http://[::1]:5173/', hasPath: false }],
    ['[::1]:5173/mcp', { domain: '[::1]', origin: 'http://[::1]:5173', url: 'http://[::1]:5173/mcp', hasPath: true }],
    [
      '192.168.1.20',
      { domain: '192.168.1.20', origin: 'http://192.168.1.20', url: 'http://192.168.1.20/', hasPath: false },
    ],
    [
      'https://localhost:8443',
      { domain: 'localhost', origin: 'https://localhost:8443', url: 'https://localhost:8443/', hasPath: false },
    ],
    // A public target is unchanged: a bare domain or public address is still scanned over https.
    [
      'example.com',
      { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/', hasPath: false },
    ],
    [
      '93.184.216.34',
      { domain: '93.184.216.34', origin: 'https://93.184.216.34', url: 'https://93.184.216.34/', hasPath: false },
    ],
  ])('%s', (input, expected) => {
    expect(normalizeInput(input, { allowLocal: true })).toEqual(expected)
  })

  test('without it, localhost stays refused and a bare loopback address stays https (the API unchanged)', () => {
    expect(() => normalizeInput('http://localhost:3000')).toThrow('not a fully qualified domain name')
    expect(normalizeInput('127.0.0.1:8080').origin).toBe('https://127.0.0.1:8080')
    // The memo of one mode never answers for the other.
    expect(normalizeInput('localhost:3000', { allowLocal: true }).origin).toBe('http://localhost:3000')
    expect(() => normalizeInput('localhost:3000')).toThrow(ScanError)
  })

  test.each([['intranet'], ['ftp://localhost'], ['http://user:pw@localhost:3000']])('still refuses %s', (input) => {
    expect(() => normalizeInput(input, { allowLocal: true })).toThrow(ScanError)
  })
})
