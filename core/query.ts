import { z } from 'zod'

/**
 * A comma-separated query parameter (`include=essentials,siteType`). Elysia may hand it over as a string or
 * already split into an array (also for a repeated parameter); both read the same.
 */
export const commaList = z.union([z.string(), z.array(z.string())])

export function listValues(value: string | string[] | undefined): Set<string> {
  const parts = (Array.isArray(value) ? value : [value ?? '']).flatMap((part) => part.split(','))
  return new Set(parts.map((part) => part.trim()).filter(Boolean))
}
