import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../core/package-root.ts'

/** What a finished command left behind. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** The CLI's source entry, as `npm run cli` runs it. */
export const CLI_SOURCE = join(PACKAGE_ROOT, 'app', 'cli', 'main.ts')

/** Runs a command to its end as a child process (stdout and stderr piped, so never a terminal). */
export async function runProcess(
  command: string[],
  options: { env: Record<string, string | undefined>; cwd?: string },
): Promise<CliRun> {
  const child = Bun.spawn(command, {
    cwd: options.cwd ?? PACKAGE_ROOT,
    env: Object.fromEntries(
      Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { code, stdout, stderr }
}

/** `agent-readiness <args>` from source, on the Bun running the tests. */
export const runCliSource = (args: string[], env: Record<string, string | undefined>): Promise<CliRun> =>
  runProcess([process.execPath, CLI_SOURCE, ...args], { env })

/**
 * Runs a command on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it: stdout and stderr
 * are both the terminal, and `stdout` is what the terminal was sent, in order (`\r\n` line ends).
 */
export function runInTerminal(command: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  const quoted = command.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ')
  return runProcess(['script', '--quiet', '--return', '--command', quoted, '/dev/null'], { env })
}
