import { getTableColumns } from 'drizzle-orm'
import type { Db } from '../../core/db/index.ts'
import { ARD_MEDIA, type ArdConfig, attestationUrl } from './identity.ts'
import type { ArdRecord } from './model.ts'
import type { PageTokens } from './page-tokens.ts'
import { ardEntries } from './tables.ts'

/** Index rows as the ARD record every reading route answers with, and what those routes are handed. */

export interface ArdContext {
  db: Db
  config: ArdConfig
  tokens: PageTokens
}

/** Every column but the search vector, which only matching reads. */
/** Search vectors and discover's text are for matching only: never read back into a record. */
export const ENTRY_COLUMNS = (({
  search: _search,
  discoverSearch: _discoverSearch,
  discoverText: _discoverText,
  ...columns
}) => columns)(getTableColumns(ardEntries))
export type EntryRow = Omit<typeof ardEntries.$inferSelect, 'search' | 'discoverSearch' | 'discoverText'>

/** `oraScorecard` carries score and grade only for a scored domain: never a fabricated 0/F. */
export function toArdRecord(row: EntryRow, config: ArdConfig): ArdRecord {
  const scored = row.score !== null && row.grade !== null
  return {
    identifier: row.identifier,
    displayName: row.displayName,
    type: row.type,
    url: row.url,
    description: row.description,
    tags: row.tags,
    representativeQueries: row.representativeQueries,
    updatedAt: row.updatedAt.toISOString(),
    publisherId: row.publisherId,
    ...(row.category ? { category: row.category } : {}),
    mcpEndpoints: row.mcpEndpoints,
    trustManifest: {
      identity: row.identifier,
      attestations: [
        {
          type: 'agent-readiness-scorecard',
          uri: attestationUrl(config, row.domain),
          mediaType: ARD_MEDIA.attestation,
        },
      ],
    },
    oraScorecard: {
      ...(scored ? { score: row.score!, grade: row.grade as NonNullable<ArdRecord['oraScorecard']['grade']> } : {}),
      ...(row.category ? { category: row.category } : {}),
      ...(row.checkedAt ? { checkedAt: row.checkedAt.toISOString() } : {}),
    },
  }
}
