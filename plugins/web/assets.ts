import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../core/package-root.ts'

/** The files under plugins/web/assets and their media types. */
const FILES = {
  'site.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'og.png': 'image/png',
  'favicon.svg': 'image/svg+xml',
  'favicon.ico': 'image/x-icon',
} as const
export type AssetName = keyof typeof FILES

export interface Asset {
  body: Uint8Array<ArrayBuffer>
  type: string
  /** `/assets/<name>.<hash>.<ext>`: changes whenever the bytes do, so it may be cached for a year. */
  path: string
}

/**
 * Assets are read once at startup and named by a digest of their bytes: pages link the fingerprinted name (cached
 * as immutable), while the plain name keeps answering with a short cache for links made elsewhere (og:image).
 */
function load(): Map<string, { asset: Asset; immutable: boolean }> {
  const byPath = new Map<string, { asset: Asset; immutable: boolean }>()
  for (const [name, type] of Object.entries(FILES)) {
    const body = new Uint8Array(readFileSync(join(PACKAGE_ROOT, 'plugins', 'web', 'assets', name)))
    const digest = createHash('sha256').update(body).digest('hex').slice(0, 12)
    const dot = name.lastIndexOf('.')
    const asset = { body, type, path: `/assets/${name.slice(0, dot)}.${digest}${name.slice(dot)}` }
    byPath.set(asset.path, { asset, immutable: true })
    byPath.set(`/assets/${name}`, { asset, immutable: false })
  }
  return byPath
}

const ASSETS = load()

/** The URL pages use for an asset. */
export const assetPath = (name: AssetName): string => ASSETS.get(`/assets/${name}`)!.asset.path

/** The asset a request path names, fingerprinted or plain, with the caching it deserves. */
export function assetAt(path: string): { asset: Asset; cacheControl: string } | null {
  const entry = ASSETS.get(path)
  if (!entry) return null
  return {
    asset: entry.asset,
    cacheControl: entry.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
  }
}
