#!/usr/bin/env bun
import { EXIT_USAGE, parseCommandLine, TargetError, UsageError, usageHint } from './usage.ts'
import type { KeyService, KeyTier } from '../../core/keys/service.ts'

// Each command imports what it needs when it runs: `--help` and an in-process scan load no database driver, job
// queue or HTTP framework (and a scan loads the browser driver only for a render).

const USAGE = `agent-readiness <command>

  serve                                   migrate, then serve the API (what \`npm start\` runs)
  worker [--concurrency N]                run background work only: deep analysis and journey runs
                                          (scale-out; set WORKER_CONCURRENCY=0 on API nodes)
  migrate                                 apply database migrations and exit
  keys create --tier scan|partner|graph-stream --label NAME
                                          create an API key; the key is printed once, only its hash
                                          is stored
  keys list                               list keys (id, tier, label, prefix, created, revoked)
  keys revoke ID                          revoke one key
  keygen                                  print a new Ed25519 private JWK for SIGNING_KEY
  scan <target> [--format text|json|markdown|junit] [--min-score N] [--checks a,b | --only a,b]
       [--baseline FILE [--tolerance N]] [--save-baseline FILE] [--server URL] [--static] ...
                                          scan (in-process, or on a running service with --server)
                                          and print the report; exit 1 when a gate fails, 2 on a
                                          usage or target error. \`agent-readiness scan --help\`
                                          explains every option
  journey <target> --intent ID [--agent ID] [--format text|json|junit] [--server URL]
                                          run an agent journey (in-process, or on a running service)
                                          and print its verdict, answer and trajectory; exit 1 when
                                          the verdict is not success.
                                          \`agent-readiness journey --help\` explains every option
  version                                 print the version, the contract version (which names the
                                          check catalog a gate ran against) and the Bun running it

Configuration comes from the environment; see README.md.`

async function withDatabase<T>(run: (keys: KeyService) => Promise<T>): Promise<T> {
  const [{ loadConfig }, { migrate, openDatabase }, { KeyService }] = await Promise.all([
    import('../../core/config.ts'),
    import('../../core/db/index.ts'),
    import('../../core/keys/service.ts'),
  ])
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
    const { KEY_TIERS } = await import('../../core/keys/service.ts')
    const { values } = parseCommandLine(rest, { tier: { type: 'string' }, label: { type: 'string' } })
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
  const { values } = parseCommandLine(args, { concurrency: { type: 'string', default: '2' } })
  const concurrency = Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
    throw new UsageError('--concurrency is 1 to 32')
  const [{ loadConfig }, { createApp }, { WORKER_FEATURES }] = await Promise.all([
    import('../../core/config.ts'),
    import('../app.ts'),
    import('../feature-list.ts'),
  ])
  // The composition root names the features whose background work runs the queued jobs; nothing listens.
  const { pieces, start, close } = await createApp(
    { ...loadConfig(), workerConcurrency: concurrency },
    { features: WORKER_FEATURES },
  )
  await start()
  pieces.log.info({ concurrency, store: pieces.store.kind }, 'worker started')
  const stop = async () => {
    await close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
  process.on('SIGINT', () => void stop())
}

export async function runCli(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  switch (command) {
    case 'scan':
      process.exitCode = await (await import('./scan.ts')).scanCommand(args)
      return
    case 'journey':
      process.exitCode = await (await import('./journey.ts')).journeyCommand(args)
      return
    case 'serve': {
      const [{ loadConfig }, { serve }] = await Promise.all([import('../../core/config.ts'), import('../serve.ts')])
      await serve(loadConfig())
      return
    }
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
      console.log((await import('../../core/crypto/signing.ts')).generateSigningKeyJwk())
      return
    case 'version':
    case '--version':
    case '-v': {
      const [{ CONTRACT_VERSION }, { version }] = await Promise.all([
        import('../../core/version.ts'),
        import('../../package.json'),
      ])
      console.log(`agent-readiness ${version} (contract ${CONTRACT_VERSION}, Bun ${Bun.version})`)
      return
    }
    case undefined:
      // A bare command is a mistake in a script: the usage, on stderr, with the usage exit code.
      console.error(USAGE)
      process.exitCode = EXIT_USAGE
      return
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE)
      return
    default:
      throw new UsageError(`Unknown command "${command}"`)
  }
}

/** node:util's parseArgs called directly (not through parseCommandLine) fails this way; the option is named in our words. */
function parseArgsProblem(error: unknown): string | null {
  const code = String((error as { code?: unknown } | null)?.code)
  if (!(error instanceof TypeError) || !code.startsWith('ERR_PARSE_ARGS')) return null
  const option = (error.message.match(/'(-[^']*)'/) ?? [])[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `${option} is not an option of this command`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) return `${option.split(' ')[0]} needs a value`
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `this command takes no argument${option ? ` such as ${option}` : ''}`
  return 'the options could not be read'
}

/** Runs a command line to its end: usage and target errors exit 2 with one message, never a stack trace. */
export function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  return runCli(argv).catch(async (error: unknown) => {
    const { ConfigError } = await import('../../core/config.ts')
    const badArguments = parseArgsProblem(error)
    if (error instanceof UsageError || badArguments) {
      // One line that says what is wrong, one that says where to read more: never the whole usage again.
      console.error(`${badArguments ?? (error as Error).message}\n${usageHint((error as Partial<UsageError>).usage)}`)
    } else if (error instanceof ConfigError || error instanceof TargetError) {
      console.error(error.message)
    } else {
      console.error(error)
    }
    process.exit(error instanceof TargetError ? error.exitCode : EXIT_USAGE)
  })
}

if (import.meta.main) void main()
