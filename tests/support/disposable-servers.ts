import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freeLoopbackPort } from './ports.ts'

/**
 * A PostgreSQL cluster and a Redis server of the test's own, on loopback ports, which the test may stop, kill and
 * start again without touching the servers other tests use. Both need the server binaries (.ci/run's machine
 * has them); `available()` says whether they are here.
 */

const POSTGRES_BIN = (() => {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const version = readdirSync(root).toSorted().at(-1)
  return version ? join(root, version, 'bin') : null
})()

export function disposableServersAvailable(): boolean {
  return POSTGRES_BIN !== null && Bun.which('redis-server') !== null
}

/** initdb and postgres refuse to run as root; as root the cluster runs as the `postgres` user. */
function asPostgresUser(command: string[]): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...command] : command
}

async function run(command: string[]): Promise<void> {
  const child = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe' })
  if ((await child.exited) !== 0) {
    throw new Error(`${command.join(' ')} failed: ${await new Response(child.stderr).text()}`)
  }
}

export interface DisposablePostgres {
  url: string
  start(): Promise<void>
  /** `immediate` drops every connection at once, as a crash would. */
  stop(): Promise<void>
  destroy(): Promise<void>
}

export async function startDisposablePostgres(): Promise<DisposablePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'ar-pg-'))
  chmodSync(dir, 0o777)
  const data = join(dir, 'data')
  const port = freeLoopbackPort()
  await run(asPostgresUser([join(POSTGRES_BIN!, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']))
  const ctl = (...args: string[]) => run(asPostgresUser([join(POSTGRES_BIN!, 'pg_ctl'), '-D', data, ...args]))
  const start = () =>
    ctl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(dir, 'log'), '-w', 'start')
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => ctl('-m', 'immediate', '-w', 'stop'),
    async destroy() {
      await ctl('-m', 'immediate', '-w', 'stop').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface DisposableRedis {
  url: string
  start(): Promise<void>
  /** SIGKILL: nothing is saved (this Redis keeps nothing on disk, like the CI one). */
  kill(): Promise<void>
}

export async function startDisposableRedis(): Promise<DisposableRedis> {
  const port = freeLoopbackPort()
  let child: ReturnType<typeof Bun.spawn> | null = null
  const start = async () => {
    child = Bun.spawn(
      ['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdout: 'ignore',
        stderr: 'ignore',
      },
    )
    for (let attempt = 0; attempt < 100; attempt++) {
      const ready = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } }).then(
        (socket) => (socket.end(), true),
        () => false,
      )
      if (ready) return
      await Bun.sleep(50)
    }
    throw new Error('redis-server did not start')
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async kill() {
      child?.kill('SIGKILL')
      await child?.exited
      child = null
    },
  }
}
