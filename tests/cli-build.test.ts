import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildCli } from '../app/cli/build.ts'
import { PACKAGE_ROOT } from '../core/package-root.ts'
import { type FixtureSite, startFixtureSite } from './fixtures/sites/server.ts'
import { runProcess } from './support/cli.ts'
import { freeLoopbackPort } from './support/ports.ts'

/**
 * The installed CLI is the bundle `npm install` builds (dist/cli.js), not the source the other CLI tests run: it
 * must scan exactly as the source does, and the commands that find files on disk (migrations, page assets) must
 * still find them from dist/.
 */

// Inside the package, so that the external packages resolve from its node_modules as they do from dist/.
const outdir = join(PACKAGE_ROOT, 'test-output', `cli-build-${process.pid}`)
const workdir = mkdtempSync(join(tmpdir(), 'ar-cli-build-'))
let built: string
let site: FixtureSite
let env: Record<string, string>

beforeAll(async () => {
  ;[built, site] = await Promise.all([buildCli(outdir), startFixtureSite('excellent')])
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: site.resolveRule,
  }
}, 60_000)

afterAll(async () => {
  await site.stop()
  rmSync(outdir, { recursive: true, force: true })
  rmSync(workdir, { recursive: true, force: true })
})

const run = (entry: string, args: string[]) => runProcess([process.execPath, entry, ...args], { cwd: workdir, env })

/** The report without what differs between two scans of one site: when, how long (in all), and random probe paths. */
const stable = (stdout: string) =>
  stdout
    .replace(/"scannedAt": "[^"]+"/, '"scannedAt": ""')
    .replace(/"durationMs": \d+/, '"durationMs": 0')
    .replace(/\b\d+ ms\b/g, 'N ms')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'uuid')

test('the build is one bundle with its bytecode, and a bin any Node or Bun starts', async () => {
  expect(await Bun.file(join(outdir, 'bundle.js')).exists()).toBe(true)
  expect(await Bun.file(join(outdir, 'bundle.js.jsc')).exists()).toBe(true)
  expect((await Bun.file(built).text()).startsWith('#!/usr/bin/env node\n')).toBe(true)
  const help = await run(built, ['--help'])
  expect(help.code).toBe(0)
  expect(help.stdout).toContain('agent-readiness <command>')
})

test('installed where PATH has Node and no Bun, the command runs on the Bun the package brings', async () => {
  const node = Bun.which('node')
  expect(node).not.toBeNull()
  // A PATH as a machine without Bun has it: the command (linked as npm links a bin), node, and the system's tools.
  const bin = join(workdir, 'node-only')
  mkdirSync(bin)
  symlinkSync(built, join(bin, 'agent-readiness'))
  symlinkSync(node!, join(bin, 'node'))
  const nodeOnly = { ...env, PATH: `${bin}:/bin` }
  expect(Bun.which('bun', { PATH: nodeOnly.PATH })).toBeNull()
  const spawn = (args: string[]) => runProcess(['agent-readiness', ...args], { cwd: workdir, env: nodeOnly })
  const help = await spawn(['--help'])
  expect(help).toMatchObject({ code: 0, stderr: '' })
  expect(help.stdout).toContain('agent-readiness <command>')
  // The exit code is the CLI's, through the Node entry.
  const usage = await spawn(['scan'])
  expect(usage.code).toBe(2)
  expect(usage.stderr).toContain('agent-readiness scan <target>')
  const scan = await spawn(['scan', site.host, '--static', '--quiet', '--format', 'json'])
  expect(scan.code).toBe(0)
  expect(JSON.parse(scan.stdout).score).toBe(100)
})

test('on a Bun other than the one that built the bundle, the bin runs the source instead', async () => {
  // As if the bundle had been built by another Bun: the bin must not load it (Bun 1.3 runs such a bundle as nothing).
  const elsewhere = join(outdir, 'other-bun.js')
  await Bun.write(elsewhere, (await Bun.file(built).text()).replace(JSON.stringify(Bun.version), '"0.0.0"'))
  await Bun.write(join(outdir, 'bundle.js'), 'throw new Error("the bundle was loaded")')
  try {
    const scan = await run(elsewhere, ['scan', site.host, '--static', '--quiet', '--format', 'json'])
    expect(scan.stderr).toBe('')
    expect(JSON.parse(scan.stdout).score).toBe(100)
    expect((await run(elsewhere, ['scan'])).code).toBe(2)
  } finally {
    await buildCli(outdir)
  }
})

test('the built CLI gives the report the source gives, and the same exit codes', async () => {
  const args = ['scan', site.host, '--static', '--quiet', '--format', 'json']
  const [fromBuild, fromSource] = await Promise.all([
    run(built, args),
    run(join(PACKAGE_ROOT, 'app', 'cli', 'main.ts'), args),
  ])
  expect(fromBuild.stderr).toBe('')
  expect(fromBuild.code).toBe(0)
  expect(JSON.parse(fromBuild.stdout).score).toBe(100)
  expect(stable(fromBuild.stdout)).toBe(stable(fromSource.stdout))

  const gate = await run(built, ['scan', site.host, '--static', '--quiet', '--checks', 'no-such-check'])
  expect(gate.code).toBe(2)
  expect(gate.stderr).toContain('unknown check ids: no-such-check')
})

test('the built CLI migrates and serves: migrations and page assets are found from dist/', async () => {
  const port = freeLoopbackPort()
  const server = Bun.spawn([process.execPath, built, 'serve'], {
    cwd: workdir,
    env: { ...env, DATABASE_URL: 'memory://', PORT: String(port) },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  try {
    const origin = `http://127.0.0.1:${port}`
    // Migrating the embedded database takes seconds, and many more on a loaded machine.
    let ready = false
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && !ready; ) {
      ready = await fetch(`${origin}/readyz`).then(
        (response) => response.ok,
        () => false,
      )
      if (!ready) await Bun.sleep(100)
    }
    expect(ready).toBe(true)
    const css = await fetch(`${origin}/assets/site.css`)
    expect(css.status).toBe(200)
    expect(await css.text()).toBe(await Bun.file(join(PACKAGE_ROOT, 'plugins', 'web', 'assets', 'site.css')).text())
    const home = await fetch(`${origin}/`)
    expect(home.status).toBe(200)
    expect(await home.text()).toContain('<form')
    // The scan table exists only if the migrations ran: an empty leaderboard answers, it does not fail.
    const leaderboard = await fetch(`${origin}/api/leaderboard`)
    expect(leaderboard.status).toBe(200)
  } finally {
    server.kill()
    await server.exited
  }
}, 120_000)
