/** List calls (`tools/list`, `resources/list`, `prompts/list`) followed through their pages, entries kept as sent. */
import { isRecord } from '../engine/snapshot.ts'
import type { Call, ListMethod, McpList, McpPrompt, McpResource, McpTool, ResultEnvelope } from './types.ts'

const MAX_PAGES = 20

export const optionalString = <K extends string>(key: K, value: unknown): { [P in K]?: string } =>
  (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string }
export const optionalRecord = <K extends string>(key: K, value: unknown): { [P in K]?: Record<string, unknown> } =>
  (isRecord(value) ? { [key]: value } : {}) as { [P in K]?: Record<string, unknown> }

function toTool(raw: unknown): McpTool {
  const entry = isRecord(raw) ? raw : {}
  return {
    name: typeof entry.name === 'string' ? entry.name : '',
    ...optionalString('title', entry.title),
    ...optionalString('description', entry.description),
    ...('inputSchema' in entry ? { inputSchema: entry.inputSchema } : {}),
    ...('outputSchema' in entry ? { outputSchema: entry.outputSchema } : {}),
    ...optionalRecord('annotations', entry.annotations),
    ...optionalRecord('_meta', entry._meta),
    raw,
  }
}

function toResource(raw: unknown): McpResource {
  const entry = isRecord(raw) ? raw : {}
  return {
    uri: typeof entry.uri === 'string' ? entry.uri : '',
    ...optionalString('name', entry.name),
    ...optionalString('mimeType', entry.mimeType),
    ...optionalRecord('_meta', entry._meta),
    raw,
  }
}

function toPrompt(raw: unknown): McpPrompt {
  const entry = isRecord(raw) ? raw : {}
  return {
    name: typeof entry.name === 'string' ? entry.name : '',
    ...optionalString('description', entry.description),
    raw,
  }
}

/** The envelope fields a result carries, only those present (a legacy result has none). */
export function resultEnvelope(result: unknown): ResultEnvelope {
  if (!isRecord(result)) return {}
  return Object.fromEntries(
    (['resultType', 'ttlMs', 'cacheScope'] as const).filter((key) => key in result).map((key) => [key, result[key]]),
  )
}

export const LISTS = {
  tools: { method: 'tools/list', toItem: toTool, keyOf: (tool: McpTool) => tool.name },
  resources: { method: 'resources/list', toItem: toResource, keyOf: (resource: McpResource) => resource.uri },
  prompts: { method: 'prompts/list', toItem: toPrompt, keyOf: (prompt: McpPrompt) => prompt.name },
} as const

/** Follows `nextCursor` for at most MAX_PAGES pages, noting a repeated cursor (a loop) and items repeated across pages. */
export async function collectList<T>(
  call: Call,
  field: keyof typeof LISTS,
  declared: boolean,
  spec: { method: ListMethod; toItem: (raw: unknown) => T; keyOf: (item: T) => string },
): Promise<McpList<T>> {
  const list: McpList<T> = { declared, items: [], pages: 0, cursorLoop: false, duplicatesAcrossPages: [] }
  const earlierPages = new Set<string>()
  const cursors = new Set<string>()
  let cursor: string | undefined
  for (;;) {
    const outcome = await call(spec.method, cursor === undefined ? {} : { cursor })
    if (outcome.error !== undefined) {
      list.error = outcome.error
      if (outcome.refused && list.pages === 0) list.refused = outcome.refused
      break
    }
    const page = isRecord(outcome.result) ? outcome.result[field] : undefined
    if (!Array.isArray(page)) {
      list.error = `the ${spec.method} result has no ${field} array`
      break
    }
    list.pages += 1
    if (list.pages === 1) list.envelope = resultEnvelope(outcome.result)
    const keys = new Set<string>()
    for (const raw of page) {
      const item = spec.toItem(raw)
      list.items.push(item)
      keys.add(spec.keyOf(item))
    }
    for (const key of keys)
      if (earlierPages.has(key) && !list.duplicatesAcrossPages.includes(key)) list.duplicatesAcrossPages.push(key)
    for (const key of keys) earlierPages.add(key)
    const next = isRecord(outcome.result) ? outcome.result.nextCursor : undefined
    if (typeof next !== 'string' || next === '') break
    if (cursors.has(next)) {
      list.cursorLoop = true
      break
    }
    if (list.pages >= MAX_PAGES) {
      list.truncated = true
      break
    }
    cursors.add(next)
    cursor = next
  }
  return list
}
