import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../tests/support/random.ts'
import { bootstrapInterval, mean, median, pearson, percentile, ranks, spearman } from './stats.ts'

describe('bench statistics', () => {
  test('percentile and median take the nearest rank at or below', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(3)
    expect(median([4, 1, 3])).toBe(3)
    expect(mean([1, 2, 6])).toBe(3)
  })

  test('ranks average their ties', () => {
    expect(ranks([10, 30, 20])).toEqual([1, 3, 2])
    expect(ranks([5, 6, 7, 8, 7])).toEqual([1, 2, 3.5, 5, 3.5])
    expect(ranks([2, 2, 2])).toEqual([2, 2, 2])
  })

  test('Spearman ρ: the known value of a tied sample, ±1 for monotone ones, NaN when one side is constant', () => {
    // scipy.stats.spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) = 0.8207826816681233 (8 / √95)
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 12)
    expect(spearman([1, 2, 3, 4], [1, 4, 9, 16])).toBe(1)
    expect(spearman([1, 2, 3, 4], [40, 30, 20, 10])).toBe(-1)
    expect(spearman([1, 2, 3], [7, 7, 7])).toBeNaN()
    // Pearson's on raw values differs where the relation is monotone but not linear.
    expect(pearson([1, 2, 3, 4], [1, 4, 9, 16])).toBeCloseTo(0.9843740386, 9)
  })

  test('the seeded generator repeats itself per seed and stays in [0, 1)', () => {
    const a = mulberry32(27)
    const b = mulberry32(27)
    const drawn = Array.from({ length: 1000 }, () => a())
    expect(Array.from({ length: 1000 }, () => b())).toEqual(drawn)
    expect(Math.min(...drawn)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...drawn)).toBeLessThan(1)
    expect(mulberry32(28)()).not.toBe(drawn[0])
  })

  test('bootstrap interval: [1, 1] for a strictly monotone sample, the same interval for the same seed, around ρ otherwise', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8]
    const monotone = bootstrapInterval(xs, [2, 4, 5, 9, 10, 11, 15, 20], spearman, { seed: 5 })
    expect(monotone.low).toBe(1)
    expect(monotone.high).toBe(1)
    const noisy = [3, 1, 4, 1, 5, 9, 2, 6]
    const first = bootstrapInterval(xs, noisy, spearman, { seed: 5, resamples: 500 })
    expect(bootstrapInterval(xs, noisy, spearman, { seed: 5, resamples: 500 })).toEqual(first)
    expect(first.used).toBeGreaterThan(450)
    expect(first.used).toBeLessThanOrEqual(500)
    const rho = spearman(xs, noisy)
    expect(first.low).toBeLessThan(rho)
    expect(first.high).toBeGreaterThan(rho)
    expect(first.low).toBeGreaterThanOrEqual(-1)
    expect(first.high).toBeLessThanOrEqual(1)
  })

  test('no defined resample gives an undefined interval', () => {
    expect(bootstrapInterval([1, 2, 3], [4, 4, 4], spearman, { resamples: 20 })).toEqual({
      low: Number.NaN,
      high: Number.NaN,
      used: 0,
    })
  })
})
