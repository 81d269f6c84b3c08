/**
 * How long public reads may be kept by browsers and CDNs, stated once per route: its Cache-Control value and the
 * sentence its OpenAPI description says about it come from the same seconds, so the two cannot disagree.
 */

/** `public, max-age=<seconds>`, plus `s-maxage` when shared caches (a CDN) may keep it longer. */
export function publicCache(seconds: number, sharedSeconds?: number): string {
  return `public, max-age=${seconds}${sharedSeconds === undefined ? '' : `, s-maxage=${sharedSeconds}`}`
}

/** "1 minute", "5 minutes", "1 hour": a cache lifetime as route descriptions say it. */
export function cacheLifetime(seconds: number): string {
  const [count, unit] = seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : [seconds / 60, 'minute']
  if (!Number.isInteger(count)) throw new Error(`${seconds} s is not a whole number of minutes`)
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}
