import type { ErrorHandler } from 'elysia'
import { AppError, type AppErrors, isDatabaseUnavailableError, renderError } from '../errors.ts'
import type { Logger } from '../log.ts'
import type { Outage } from '../outage.ts'
import { asAppError } from './scan-error-response.ts'
import { databaseUnavailable } from './caller.ts'
import type { RequestRecords } from './request-id.ts'

/** An error in the envelope of its path, with the request id and no caching. */
export function errorResponder(records: RequestRecords, errors: AppErrors) {
  return (request: Request, error: AppError): Response => {
    const { pathname } = new URL(request.url)
    const { body, headers } = renderError(error, errors.envelopeFor(pathname))
    records.failed(request, error.status)
    return Response.json(body, {
      status: error.status,
      headers: { ...headers, 'x-request-id': records.id(request) ?? '', 'cache-control': 'no-store' },
    })
  }
}

/** What onError hands over: the error, Elysia's code for it, and the request. */
type ErrorEvent = Parameters<ErrorHandler>[0]

/**
 * The one error mapper (onError): every error of every route leaves in the envelope of its path; anything
 * unforeseen is logged and answered 500.
 */
export function errorMapper(pieces: {
  log: Logger
  outage: Outage
  records: RequestRecords
  errorResponse: (request: Request, error: AppError) => Response
}) {
  const { log, outage, records, errorResponse } = pieces
  return ({ code, error, request }: ErrorEvent): Response => {
    const known = asAppError(error)
    if (known) return errorResponse(request, known)
    const { pathname } = new URL(request.url)
    switch (code) {
      case 'VALIDATION': {
        const issues = issuesOf(error.all)
        return errorResponse(
          request,
          new AppError('VALIDATION_FAILED', {
            message: `Invalid ${error.type}: ${issues.map(describeIssue).join('; ')}`,
            details: { in: error.type, issues },
          }),
        )
      }
      case 'PARSE':
        // Elysia wraps what our parser threw (INVALID_JSON, PAYLOAD_TOO_LARGE) as the cause of its ParseError.
        return errorResponse(
          request,
          error.cause instanceof AppError
            ? error.cause
            : new AppError('INVALID_JSON', { message: 'The request body could not be parsed' }),
        )
      case 'NOT_FOUND':
        return errorResponse(
          request,
          new AppError('ENDPOINT_NOT_FOUND', { message: `No route for ${request.method} ${pathname}` }),
        )
      default: {
        if (isDatabaseUnavailableError(error)) {
          outage.failed(error)
          return errorResponse(request, databaseUnavailable())
        }
        log.error(
          { err: error, requestId: records.id(request), method: request.method, path: pathname },
          'unhandled error',
        )
        return errorResponse(request, new AppError('INTERNAL_ERROR', { message: 'An unexpected error occurred' }))
      }
    }
  }
}

interface ValidationIssue {
  path: string
  message: string
}

/** Elysia reports zod (standard schema) and TypeBox issues in slightly different shapes; one shape goes out. */
function issuesOf(all: readonly unknown[]): ValidationIssue[] {
  return all.map((raw) => {
    const issue = (raw ?? {}) as { path?: unknown; message?: unknown; summary?: unknown }
    const path = Array.isArray(issue.path)
      ? issue.path.join('.')
      : typeof issue.path === 'string'
        ? issue.path.replace(/^\//, '').replaceAll('/', '.')
        : ''
    const message =
      typeof issue.message === 'string' ? issue.message : typeof issue.summary === 'string' ? issue.summary : 'invalid'
    return { path, message }
  })
}

function describeIssue(issue: ValidationIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message
}
