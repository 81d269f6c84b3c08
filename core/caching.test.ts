import { expect, test } from 'bun:test'
import { cacheLifetime, publicCache } from './caching.ts'

test('one number of seconds gives both the header value and the words a description says', () => {
  expect(publicCache(60)).toBe('public, max-age=60')
  expect(publicCache(300, 3600)).toBe('public, max-age=300, s-maxage=3600')
  expect([60, 300, 3600, 7200].map(cacheLifetime)).toEqual(['1 minute', '5 minutes', '1 hour', '2 hours'])
  expect(() => cacheLifetime(90)).toThrow('whole number of minutes')
})
