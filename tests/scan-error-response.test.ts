import { describe, expect, test } from 'bun:test'
import { scanErrorToV2AppError } from '../plugins/scan/v2.ts'
import { ScanError, type ScanFailure } from '../core/engine/scan-error.ts'
import { normalizeInput } from '../core/engine/target.ts'
import { AppError, ERROR_ENVELOPE, renderError } from '../core/errors.ts'
import { asAppError, scanErrorToAppError } from '../core/request/scan-error-response.ts'

const failures: [ScanFailure, number, Record<string, unknown>][] = [
  [
    { reason: 'invalid-target', input: 'localhost', problem: '"localhost" is not a fully qualified domain name' },
    400,
    {
      error: 'Invalid domain',
      code: 'INVALID_DOMAIN',
      message: 'm',
      details: { input: 'localhost', reason: '"localhost" is not a fully qualified domain name' },
    },
  ],
  [
    { reason: 'unreachable', origin: 'https://down.test', cause: 'DNS_FAILURE' },
    400,
    {
      error: 'Domain unreachable',
      code: 'DOMAIN_UNREACHABLE',
      message: 'm',
      details: { origin: 'https://down.test', reason: 'DNS_FAILURE' },
    },
  ],
  [
    { reason: 'private-address', origin: 'https://10.0.0.1', cause: 'BLOCKED_ADDRESS' },
    400,
    {
      error: 'Domain unreachable',
      code: 'DOMAIN_UNREACHABLE',
      message: 'm',
      details: { origin: 'https://10.0.0.1', reason: 'BLOCKED_ADDRESS' },
    },
  ],
  [
    { reason: 'mcp-unreachable', mcpUrl: 'https://x.test/mcp', cause: 'TIMEOUT' },
    400,
    {
      error: 'Domain unreachable',
      code: 'DOMAIN_UNREACHABLE',
      message: 'm',
      details: { mcpUrl: 'https://x.test/mcp', reason: 'TIMEOUT' },
    },
  ],
  [
    { reason: 'mcp-auth-required', mcpUrl: 'https://x.test/mcp', urlKind: 'mcp-app' },
    422,
    {
      error: 'MCP server requires authentication',
      code: 'MCP_AUTH_REQUIRED',
      message: 'm',
      mcpAuthRequired: true,
      mcpUrl: 'https://x.test/mcp',
      urlKind: 'mcp-app',
    },
  ],
]

describe('the one table from ScanError reasons to what the edges answer', () => {
  test.each(failures)('%o answers its status and the spec envelope, byte for byte', (failure, status, body) => {
    const mapped = scanErrorToAppError(new ScanError(failure, 'm'))
    expect(mapped.status).toBe(status)
    // Key order is part of the bytes a client receives.
    expect(JSON.stringify(renderError(mapped, ERROR_ENVELOPE).body)).toBe(JSON.stringify(body))
  })

  test('the v2 entry answers 422 TARGET_UNREACHABLE naming the plain code, except for an invalid target', () => {
    const [invalid, unreachable, , , auth] = failures.map(([failure]) =>
      scanErrorToV2AppError(new ScanError(failure, 'm')),
    )
    expect(invalid).toMatchObject({ code: 'INVALID_DOMAIN', status: 400 })
    expect(renderError(unreachable!, ERROR_ENVELOPE).body).toEqual({
      error: 'Target unreachable or unclassifiable',
      code: 'TARGET_UNREACHABLE',
      message: 'm',
      details: { reason: 'DOMAIN_UNREACHABLE' },
    })
    expect(auth).toMatchObject({ code: 'TARGET_UNREACHABLE', status: 422, details: { reason: 'MCP_AUTH_REQUIRED' } })
  })

  test('what the engine throws reaches the edge through the table; AppErrors pass; anything else is not ours', () => {
    const thrown = (() => {
      try {
        normalizeInput('ftp://example.com')
      } catch (error) {
        return error
      }
    })()
    expect(asAppError(thrown)).toMatchObject({
      code: 'INVALID_DOMAIN',
      message: '"ftp://example.com" is not a scannable target: scheme "ftp:" is not http or https',
    })
    const own = new AppError('NOT_FOUND')
    expect(asAppError(own)).toBe(own)
    expect(asAppError(new Error('boom'))).toBeNull()
  })
})
