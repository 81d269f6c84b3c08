/** Exit codes a CI gate can tell apart. */
export const EXIT_PASS = 0
export const EXIT_GATE_FAILED = 1
export const EXIT_USAGE = 2

/** A mistake in the command line: one line, then the usage, never a stack trace (exit 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage of the command at fault; the general one when absent. */
    readonly usage?: string,
  ) {
    super(message)
  }
}

/** The target (or the server scanning it) could not be scanned: one line, exit 2. */
export class TargetError extends Error {}
