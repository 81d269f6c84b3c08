import { mulberry32 } from '../tests/support/random.ts'

/** The value at percentile `p` (0-100) of numbers sorted ascending: the nearest rank at or below, as every bench reports it. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** The median of unsorted numbers (the upper of the two middle values when their count is even). */
export const median = (values: readonly number[]): number =>
  percentile(
    values.toSorted((a, b) => a - b),
    50,
  )

/** The arithmetic mean; NaN for no values. */
export const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length

/** 1-based ranks, ties given the mean of the ranks they span (what Spearman's ρ needs). */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value)
  const ranked = new Array<number>(values.length)
  for (let start = 0; start < order.length; ) {
    let end = start
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++
    for (let at = start; at <= end; at++) ranked[order[at]!.index] = (start + end) / 2 + 1
    start = end + 1
  }
  return ranked
}

/** Pearson's correlation; NaN when either side does not vary (no correlation can be stated). */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  if (xs.length !== ys.length) throw new Error('pearson: the two samples differ in length')
  const mx = mean(xs)
  const my = mean(ys)
  let cov = 0
  let vx = 0
  let vy = 0
  for (let index = 0; index < xs.length; index++) {
    const dx = xs[index]! - mx
    const dy = ys[index]! - my
    cov += dx * dy
    vx += dx * dx
    vy += dy * dy
  }
  return vx === 0 || vy === 0 ? Number.NaN : cov / Math.sqrt(vx * vy)
}

/** Spearman's rank correlation ρ: Pearson's over the ranks, ties averaged. */
export const spearman = (xs: readonly number[], ys: readonly number[]): number => pearson(ranks(xs), ranks(ys))

export interface BootstrapInterval {
  low: number
  high: number
  /** Resamples whose statistic was defined (a resample where one side is constant has no correlation). */
  used: number
}

/**
 * Percentile bootstrap interval of a statistic over paired samples: `resamples` draws of n pairs with replacement,
 * the statistic of each, and the (1 - level)/2 and (1 + level)/2 percentiles of the defined ones.
 */
export function bootstrapInterval(
  xs: readonly number[],
  ys: readonly number[],
  statistic: (xs: readonly number[], ys: readonly number[]) => number,
  options: { resamples?: number; level?: number; seed?: number } = {},
): BootstrapInterval {
  const { resamples = 2000, level = 0.95, seed = 1 } = options
  const random = mulberry32(seed)
  const values: number[] = []
  for (let draw = 0; draw < resamples; draw++) {
    const picks = Array.from(xs, () => Math.floor(random() * xs.length))
    const value = statistic(
      picks.map((index) => xs[index]!),
      picks.map((index) => ys[index]!),
    )
    if (!Number.isNaN(value)) values.push(value)
  }
  values.sort((a, b) => a - b)
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN, used: 0 }
  return {
    low: percentile(values, ((1 - level) / 2) * 100),
    high: percentile(values, ((1 + level) / 2) * 100),
    used: values.length,
  }
}
