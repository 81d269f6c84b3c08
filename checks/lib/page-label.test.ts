import { describe, expect, test } from 'bun:test'
import { context, sampledPageContext } from '../../tests/support/artifacts.ts'
import { pageLabel } from './page-label.ts'

describe('pageLabel', () => {
  test.each([
    ['the homepage', context, 'homepage'],
    ['a sampled page, by its path', sampledPageContext, 'page /docs/intro'],
    [
      'a sampled page with a query keeps it',
      { ...context, page: 'https://acme.test/search?q=anvil' },
      'page /search?q=anvil',
    ],
  ] as const)('%s', (_name, given, expected) => {
    expect(pageLabel(given)).toBe(expected)
  })
})
