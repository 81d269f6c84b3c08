import { describe, expect, test } from 'bun:test'
import { AppError } from '../errors.ts'
import { normalizeInput } from './target.ts'

describe('normalizeInput', () => {
  test.each([
    ['example.com', { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/', hasPath: false }],
    ['  Example.COM.  ', { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/', hasPath: false }],
    ['https://shop.example.com/', { domain: 'shop.example.com', origin: 'https://shop.example.com', url: 'https://shop.example.com/', hasPath: false }],
    ['http://example.com/#top', { domain: 'example.com', origin: 'http://example.com', url: 'http://example.com/', hasPath: false }],
    ['https://api.example.com/mcp', { domain: 'api.example.com', origin: 'https://api.example.com', url: 'https://api.example.com/mcp', hasPath: true }],
    ['https%3A%2F%2Fexample.com%2Fmcp', { domain: 'example.com', origin: 'https://example.com', url: 'https://example.com/mcp', hasPath: true }],
    ['bücher.example', { domain: 'xn--bcher-kva.example', origin: 'https://xn--bcher-kva.example', url: 'https://xn--bcher-kva.example/', hasPath: false }],
    ['example.com:8443', { domain: 'example.com', origin: 'https://example.com:8443', url: 'https://example.com:8443/', hasPath: false }],
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
  ])('refuses %# with 400 INVALID_DOMAIN', (input) => {
    try {
      normalizeInput(input)
      throw new Error('expected a refusal')
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('INVALID_DOMAIN')
      expect((error as AppError).status).toBe(400)
    }
  })
})
