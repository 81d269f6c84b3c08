/** The value at percentile `p` (0-100) of numbers sorted ascending: the nearest rank at or below, as every bench reports it. */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** The median of unsorted numbers (the upper of the two middle values when their count is even). */
export const median = (values: readonly number[]): number => percentile(values.toSorted((a, b) => a - b), 50)
