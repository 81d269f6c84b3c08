import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../config.ts'
import { createBrowserProvider } from './browser-puppeteer.ts'

/**
 * Chromium dies with the service, however the service dies: a child process launches the browser and renders a
 * page, is killed with SIGKILL (no handler runs), and the whole Chromium tree it started must be gone soon after.
 * Skipped only when no Chromium is installed (.ci/run installs it, so CI runs it).
 */

setDefaultTimeout(60_000)

const available = createBrowserProvider(loadConfig({})) !== null
const scratch = mkdtempSync(join(tmpdir(), 'browser-lifecycle-'))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Live processes (zombies count as dead) and their parents, from /proc. */
function processTable(): Map<number, { ppid: number; comm: string }> {
  const table = new Map<number, { ppid: number; comm: string }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so split after the last ')'.
      const close = stat.lastIndexOf(')')
      const [state, ppid] = stat.slice(close + 2).split(' ')
      if (state === 'Z' || state === 'X') continue
      table.set(Number(entry), { ppid: Number(ppid), comm: stat.slice(stat.indexOf('(') + 1, close) })
    } catch {
      // Gone while we looked.
    }
  }
  return table
}

function descendants(root: number): number[] {
  const table = processTable()
  const found: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()!
    for (const [pid, { ppid }] of table) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid)
        queue.push(pid)
      }
    }
  }
  return found
}

describe.skipIf(!available)('browser lifecycle', () => {
  test('kill -9 of the process that launched Chromium leaves no Chromium process behind', async () => {
    const script = join(scratch, 'launch.ts')
    writeFileSync(
      script,
      `import { loadConfig } from ${JSON.stringify(join(import.meta.dir, '../config.ts'))}
import { createBrowserProvider } from ${JSON.stringify(join(import.meta.dir, 'browser-puppeteer.ts'))}
const browser = createBrowserProvider(loadConfig({ LOG_LEVEL: 'silent' }))!
const body = new TextEncoder().encode('<!doctype html><p>alive</p>')
const result = await browser.render('http://child.test/', {
  timeoutMs: 20_000,
  userAgent: 'test',
  fetch: async () => ({ status: 200, headers: { 'content-type': 'text/html' }, body }),
})
console.log(result.html.includes('alive') ? 'READY' : 'NOT RENDERED')
setInterval(() => {}, 1_000)
`,
    )
    const child = Bun.spawn([process.execPath, script], { stdout: 'pipe', stderr: 'inherit' })
    let tree: number[] = []
    let names = new Map<number, string>()
    try {
      const reader = child.stdout.getReader()
      let output = ''
      while (!output.includes('\n')) {
        const { done, value } = await reader.read()
        if (done) break
        output += new TextDecoder().decode(value)
      }
      expect(output.trim()).toBe('READY')
      tree = descendants(child.pid)
      const table = processTable()
      names = new Map(tree.map((pid) => [pid, table.get(pid)?.comm ?? '']))
      // The tree is the browser (and its zygotes, renderers, utilities), not something else.
      expect(tree.some((pid) => /chrom/i.test(table.get(pid)?.comm ?? ''))).toBe(true)

      child.kill('SIGKILL')
      await child.exited
      let alive = tree
      for (let waited = 0; waited < 10_000 && alive.length > 0; waited += 100) {
        await Bun.sleep(100)
        const now = processTable()
        alive = tree.filter((pid) => now.has(pid))
      }
      expect(alive).toEqual([])
    } finally {
      child.kill('SIGKILL')
      // On failure, leave nothing behind for other tests: only the processes of that tree still running as themselves.
      const now = processTable()
      for (const pid of tree) {
        if (now.get(pid)?.comm !== names.get(pid)) continue
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
      }
    }
  })
})
