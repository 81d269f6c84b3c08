#!/usr/bin/env bun
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config.ts'
import { generateSigningKeyJwk } from './crypto/signing.ts'
import { migrate, openDatabase } from './db/index.ts'
import { closeDeps, createEngineDeps, openDeps } from './deps.ts'
import { JourneyWorker } from '../plugins/journey/worker.ts'
import { ScanWorker } from '../plugins/scan/worker.ts'
import { renderTextReport } from './engine/report-text.ts'
import { scan } from './engine/scan.ts'
import { AppError } from './errors.ts'
import { KEY_TIERS, KeyService, type KeyTier } from './keys/service.ts'
import { serve } from './main.ts'

const USAGE = `agent-readiness <command>

  serve                                   migrate, then serve the API (what \`npm start\` runs)
  worker [--concurrency N]                run background work only: deep analysis and journey runs (scale-out; set WORKER_CONCURRENCY=0 on API nodes)
  migrate                                 apply database migrations and exit
  keys create --tier scan|partner|graph-stream --label NAME
                                          create an API key; the key is printed once, only its hash is stored
  keys list                               list keys (id, tier, label, prefix, created, revoked)
  keys revoke ID                          revoke one key
  keygen                                  print a new Ed25519 private JWK for SIGNING_KEY
  scan <url> [--checks a,b] [--min-score N] [--format json|text] [--mcp URL]
                                          scan in-process and print the report; exit 1 when the score is
                                          below --min-score or a listed check does not pass, 2 when the
                                          target cannot be scanned

Configuration comes from the environment; see README.md.`

class UsageError extends Error {}

/** Exit codes a CI gate can tell apart. */
const EXIT_GATE_FAILED = 1
const EXIT_SCAN_FAILED = 2

async function scanCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      checks: { type: 'string' },
      'min-score': { type: 'string' },
      format: { type: 'string', default: 'text' },
      mcp: { type: 'string' },
    },
  })
  const [target] = positionals
  if (!target || positionals.length > 1) throw new UsageError('scan takes exactly one target URL or domain')
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError('--format is json or text')
  const minScore = values['min-score'] === undefined ? undefined : Number(values['min-score'])
  if (minScore !== undefined && !(Number.isInteger(minScore) && minScore >= 0 && minScore <= 100)) {
    throw new UsageError('--min-score is a whole number from 0 to 100')
  }
  const engine = createEngineDeps(loadConfig())
  const checkIds = values.checks?.split(',').map((id) => id.trim()).filter(Boolean)
  const unknown = checkIds?.filter((id) => !engine.registry.has(id)) ?? []
  if (unknown.length > 0) throw new UsageError(`Unknown check ids: ${unknown.join(', ')} (see GET /api/checks)`)
  try {
    const report = await scan(target, engine, {
      phase: 'all',
      checkIds,
      mcpUrl: values.mcp,
      onEvent: (event) => {
        if (event.type === 'check_complete') process.stderr.write(`  ${event.status.padEnd(7)} ${event.checkId}\n`)
        if (event.type === 'kind_detected') process.stderr.write(`scanning ${target} as ${event.kind}\n`)
      },
    })
    console.log(values.format === 'json' ? JSON.stringify(report, null, 2) : renderTextReport(report))
    const results = report.layers.flatMap((layer) => layer.checks)
    const failedChecks = (checkIds ?? []).filter((id) => results.some((result) => result.id === id && result.status !== 'pass'))
    if (minScore !== undefined && report.score < minScore) {
      console.error(`gate: score ${report.score} is below --min-score ${minScore}`)
      return EXIT_GATE_FAILED
    }
    if (failedChecks.length > 0) {
      console.error(`gate: ${failedChecks.join(', ')} did not pass`)
      return EXIT_GATE_FAILED
    }
    return 0
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`cannot scan ${target}: ${error.message}`)
      return EXIT_SCAN_FAILED
    }
    throw error
  } finally {
    await engine.browser?.close()
  }
}

async function withDatabase<T>(run: (keys: KeyService) => Promise<T>): Promise<T> {
  const config = loadConfig()
  const database = await openDatabase(config)
  try {
    await migrate(config, database)
    return await run(new KeyService(database.db))
  } finally {
    await database.close()
  }
}

async function keysCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (action === 'create') {
    const { values } = parseArgs({ args: rest, options: { tier: { type: 'string' }, label: { type: 'string' } } })
    if (!values.tier || !KEY_TIERS.includes(values.tier as KeyTier)) {
      throw new UsageError(`--tier must be one of ${KEY_TIERS.join(', ')}`)
    }
    if (!values.label?.trim()) throw new UsageError('--label NAME is required')
    const created = await withDatabase((keys) => keys.create(values.tier as KeyTier, values.label!.trim()))
    console.log(`Created key ${created.id} (${values.tier}, "${values.label}").`)
    console.log('Store it now; it is not shown again:')
    console.log(created.key)
    return
  }
  if (action === 'list') {
    const rows = await withDatabase((keys) => keys.list())
    if (rows.length === 0) console.log('No keys.')
    for (const row of rows) {
      const state = row.revokedAt ? `revoked ${row.revokedAt.toISOString()}` : 'active'
      console.log(`${row.id}\t${row.tier}\t${row.label}\t${row.prefix}…\t${row.createdAt.toISOString()}\t${state}`)
    }
    return
  }
  if (action === 'revoke') {
    const id = Number(rest[0])
    if (!Number.isInteger(id) || id <= 0) throw new UsageError('keys revoke takes a key id')
    const revoked = await withDatabase((keys) => keys.revoke(id))
    if (!revoked) throw new UsageError(`No active key with id ${id}`)
    console.log(`Revoked key ${id}.`)
    return
  }
  throw new UsageError('keys takes create, list or revoke')
}

async function workerCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { concurrency: { type: 'string', default: '2' } } })
  const concurrency = Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) throw new UsageError('--concurrency is 1 to 32')
  const deps = await openDeps(loadConfig())
  await deps.jobs.start()
  const worker = new ScanWorker(deps)
  await worker.start(concurrency)
  await new JourneyWorker(deps).start(concurrency)
  deps.log.info({ concurrency, store: deps.store.kind }, 'worker started')
  const stop = async () => {
    await closeDeps(deps)
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
}

export async function runCli(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  switch (command) {
    case 'scan':
      process.exitCode = await scanCommand(args)
      return
    case 'serve':
      await serve(loadConfig())
      return
    case 'worker':
      await workerCommand(args)
      return
    case 'migrate':
      await withDatabase(async () => {})
      console.log('Migrations applied.')
      return
    case 'keys':
      await keysCommand(args)
      return
    case 'keygen':
      console.log(generateSigningKeyJwk())
      return
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE)
      return
    default:
      throw new UsageError(`Unknown command "${command}"`)
  }
}

if (import.meta.main) {
  runCli(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(error.message)
      if (error instanceof UsageError) console.error(`\n${USAGE}`)
    } else {
      console.error(error)
    }
    process.exit(EXIT_SCAN_FAILED)
  })
}
