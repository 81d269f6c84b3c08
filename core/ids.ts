/** Largest PostgreSQL `integer` (int4), the type of every serial id column: a larger id names no row. */
export const MAX_INT4 = 2_147_483_647

/** Whether `value` can be a serial row id at all; anything else would be an out-of-range error, not "not found". */
export function isRowId(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_INT4
}

/** The row id a path segment spells in plain decimal ("42"; not "042", "4.2e1", "0x2a" or " 42"), or null. */
export function parseRowId(text: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return null
  const id = Number(text)
  return isRowId(id) ? id : null
}
