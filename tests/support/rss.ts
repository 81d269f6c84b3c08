/**
 * Peak RSS growth while `run` runs: sampled every `everyMs` and once at the end, above the RSS just before it
 * (taken after a full collection, so garbage from earlier work does not count against this run).
 */
export async function rssGrowth<T>(run: () => Promise<T>, everyMs = 2): Promise<{ value: T; growthMb: number }> {
  Bun.gc(true)
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, everyMs)
  try {
    const value = await run()
    peak = Math.max(peak, process.memoryUsage().rss)
    return { value, growthMb: (peak - before) / 1024 / 1024 }
  } finally {
    clearInterval(sampler)
  }
}
