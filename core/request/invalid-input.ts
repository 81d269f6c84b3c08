import { AppError } from '../errors.ts'

/** A 400 naming where the input failed (`body`, `query`, `params`) in the same shape as a schema failure. */
export function invalidInput(where: 'body' | 'query' | 'params', path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    message: `Invalid ${where}: ${path ? `${path}: ` : ''}${message}`,
    details: { in: where, issues: [{ path, message }] },
  })
}
