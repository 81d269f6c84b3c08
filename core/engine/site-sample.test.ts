import { describe, expect, test } from 'bun:test'
import { affordableCount, CRAWL_DELAY_WINDOW_MS, normalisePageUrl, sectionOf, spreadSample } from './site-sample.ts'

const base = 'https://acme.test/'

describe('normalisePageUrl', () => {
  test.each([
    ['/docs/a#intro', 'https://acme.test/docs/a'],
    ['HTTPS://ACME.test:443/docs/', 'https://acme.test/docs/'],
    ['/docs/index.html', 'https://acme.test/docs/'],
    ['/search?q=1', 'https://acme.test/search?q=1'],
    ['mailto:a@acme.test', null],
    ['javascript:void(0)', null],
  ])('%s → %s', (raw, normalised) => {
    expect(normalisePageUrl(raw, base)).toBe(normalised)
  })
})

describe('spreadSample', () => {
  const docs = Array.from({ length: 40 }, (_, i) => `https://acme.test/docs/p${String(i).padStart(2, '0')}`)
  const blog = ['https://acme.test/blog/b1', 'https://acme.test/blog/b2']
  const about = ['https://acme.test/about']

  test('round-robin over the sections: a large section does not crowd out the small ones', () => {
    const picked = spreadSample([...docs, ...blog, ...about], 6)
    expect(picked).toEqual([
      'https://acme.test/about',
      'https://acme.test/blog/b1',
      'https://acme.test/docs/p00',
      'https://acme.test/blog/b2',
      'https://acme.test/docs/p01',
      'https://acme.test/docs/p02',
    ])
    expect(new Set(picked.map(sectionOf))).toEqual(new Set(['about', 'blog', 'docs']))
  })

  test('deterministic whatever the order candidates arrived in, and never more than there are', () => {
    const shuffled = [...docs, ...blog, ...about].reverse()
    expect(spreadSample(shuffled, 10)).toEqual(spreadSample([...about, ...blog, ...docs], 10))
    expect(spreadSample(blog, 25)).toEqual(blog)
  })
})

describe('affordableCount', () => {
  test('no Crawl-delay: the sample asked for', () => {
    expect(affordableCount(25, 0)).toEqual({ count: 25 })
  })

  test('a Crawl-delay up to 2 s is obeyed: the sample shrinks to what fits the fetching window, and says so', () => {
    expect(affordableCount(10, 1)).toEqual({ count: 10 })
    const { count, note } = affordableCount(100, 2)
    expect(count).toBe(1 + CRAWL_DELAY_WINDOW_MS / 2000)
    expect(note).toContain('Crawl-delay of 2 s')
  })

  test('a longer Crawl-delay leaves the homepage alone', () => {
    const { count, note } = affordableCount(25, 10)
    expect(count).toBe(1)
    expect(note).toContain('more than the 2 s the scanner waits')
  })
})
