/** Light structural validation of JSON objects: required fields by dotted path and kind. */
import { isRecord } from '../../core/engine/snapshot.ts'

export type FieldKind = 'string' | 'object' | 'array' | 'non-empty-array'

/** Reads a dotted path (`info.title`) from a JSON object. */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  let current: unknown = record
  for (const key of path.split('.')) {
    if (!isRecord(current)) return undefined
    current = current[key]
  }
  return current
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string' && value.trim() !== ''
    case 'object':
      return isRecord(value)
    case 'array':
      return Array.isArray(value)
    case 'non-empty-array':
      return Array.isArray(value) && value.length > 0
  }
}

/** The fields (dotted paths) that are absent or of the wrong kind. */
export function missingFields(record: Record<string, unknown>, fields: Record<string, FieldKind>): string[] {
  return Object.entries(fields)
    .filter(([path, kind]) => !hasKind(valueAt(record, path), kind))
    .map(([path]) => path)
}
