/**
 * Declared removals (spec, Versioning 4): from `deprecatedAt` a route answers with `Deprecation`, and once a
 * removal date is committed with `Sunset` (RFC 8594), always at least 90 days ahead. Nothing is deprecated in
 * contract 1.27.0; an entry here is the whole change needed to announce one.
 */
export interface Deprecation {
  /** Route pattern as mounted, e.g. `POST /api/scan`. */
  route: string
  deprecatedAt: Date
  sunsetAt?: Date
  /** Migration guide. */
  link: string
}

export const MIN_SUNSET_NOTICE_DAYS = 90

export const DEPRECATIONS: readonly Deprecation[] = []

/** Headers for a successful response of `route` under the given registry (the declared one by default). */
export function deprecationHeaders(
  route: string,
  registry: readonly Deprecation[] = DEPRECATIONS,
  now = new Date(),
): Record<string, string> {
  const entry = registry.find((candidate) => candidate.route === route)
  if (!entry || now < entry.deprecatedAt) return {}
  const headers: Record<string, string> = {
    // RFC 9745: an IMF-fixdate is written as a structured-field date (@<unix seconds>).
    deprecation: `@${Math.floor(entry.deprecatedAt.getTime() / 1000)}`,
    link: `<${entry.link}>; rel="deprecation"; type="text/html"`,
  }
  if (entry.sunsetAt) headers.sunset = entry.sunsetAt.toUTCString()
  return headers
}

/** Registry invariant: a committed sunset is at least 90 days after the deprecation takes effect. */
export function invalidDeprecations(registry: readonly Deprecation[]): string[] {
  return registry
    .filter(
      (entry) =>
        entry.sunsetAt && entry.sunsetAt.getTime() - entry.deprecatedAt.getTime() < MIN_SUNSET_NOTICE_DAYS * 86_400_000,
    )
    .map((entry) => `${entry.route}: Sunset must be at least ${MIN_SUNSET_NOTICE_DAYS} days after Deprecation`)
}
