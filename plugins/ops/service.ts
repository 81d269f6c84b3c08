import type { Kernel } from '../../core/kernel.ts'
import type { Readiness } from './model.ts'

const PROBE_TIMEOUT_MS = 2000

async function probe(check: () => Promise<void>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS)
      }),
    ])
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Ready means both systems a request may need answer within the probe timeout. */
export async function readiness(deps: Pick<Kernel, 'database' | 'store'>): Promise<Readiness> {
  const [database, store] = await Promise.all([probe(() => deps.database.ping()), probe(() => deps.store.ping())])
  return {
    status: database && store ? 'ready' : 'not_ready',
    checks: {
      database: { ok: database, kind: deps.database.kind },
      store: { ok: store, kind: deps.store.kind },
    },
  }
}
