import pino from 'pino'
import type { Config } from './config.ts'

export type Logger = pino.Logger

/**
 * Structured JSON logs on stdout. Credentials are redacted by path so that a bearer key or a signing key can
 * never reach a log line, whichever code logs a request or a config object.
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'agent-readiness' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'headers.authorization',
        'req.headers.authorization',
        '*.authorization',
        'signingKey',
        '*.signingKey',
        'serviceSecret',
        '*.serviceSecret',
        'apiKey',
        '*.apiKey',
        'key',
        'token',
        'verificationToken',
      ],
      censor: '[redacted]',
    },
  })
}
