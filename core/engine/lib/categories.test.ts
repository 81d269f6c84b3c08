import { describe, expect, test } from 'bun:test'
import { CATEGORIES, CATEGORY_SLUGS, isCategorySlug } from './categories.ts'

describe('taxonomy', () => {
  test('15 categories with unique kebab-case slugs, names and keywords', () => {
    expect(CATEGORIES).toHaveLength(15)
    expect(new Set(CATEGORY_SLUGS).size).toBe(CATEGORIES.length)
    for (const category of CATEGORIES) {
      expect(category.slug).toMatch(/^[a-z]+(-[a-z]+)*$/)
      expect(category.name.length).toBeGreaterThan(0)
      expect(Object.keys(category.keywords).length).toBeGreaterThanOrEqual(10)
      for (const [term, weight] of Object.entries(category.keywords)) {
        expect(term).toBe(term.toLowerCase())
        expect([1, 2, 3]).toContain(weight)
      }
    }
    expect(isCategorySlug('developer-tools')).toBe(true)
    expect(isCategorySlug('Developer-Tools')).toBe(false)
  })
})
