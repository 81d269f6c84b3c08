import { z } from 'zod'

/**
 * A comma-separated query parameter (`include=essentials,siteType`). Elysia may hand it over as a string or
 * already split into an array (also for a repeated parameter); both read the same.
 */
export const commaList = z.union([z.string(), z.array(z.string())])

export function listValues(value: string | string[] | undefined): Set<string> {
  const values = new Set<string>()
  if (value === undefined) return values
  for (const entry of Array.isArray(value) ? value : [value]) {
    for (const part of entry.split(',')) {
      const trimmed = part.trim()
      if (trimmed) values.add(trimmed)
    }
  }
  return values
}
