import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { z } from 'zod'
import type { Config } from '../../core/config.ts'
import type { AppErrors } from '../../core/errors.ts'
import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/version.ts'
import { completeDocument } from '../../core/openapi.ts'

// Swagger UI is served from the installed package rather than a CDN, so a self-hosted or offline
// deployment still has working API docs.
const swaggerDist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
const SWAGGER_ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const

const API_DESCRIPTION = `Measures how ready a website, an MCP server or an MCP App server is for use by AI agents, and publishes the results.

Errors use one envelope: \`{ error, code, message, details?, retry_after_ms? }\` (ARD and catalog routes: \`{ errorCode, message, details? }\`).
Schema failures are 400 with \`details.issues\`; malformed JSON is 400 \`INVALID_JSON\`; unknown routes are 404 \`ENDPOINT_NOT_FOUND\`;
bodies over 1 MiB are 413 \`PAYLOAD_TOO_LARGE\`; bodies that are not \`application/json\` are 415 \`UNSUPPORTED_MEDIA_TYPE\`;
JSON nested more than 64 levels deep, and text (body, query or path) holding NUL, other control characters than tab, LF and CR,
or unpaired surrogates, is 400 \`VALIDATION_FAILED\`; rate-limit denials are 429 with \`Retry-After\` (seconds).
Every response carries \`X-Request-Id\` (the caller's own when it is 8-128 characters of \`[A-Za-z0-9._-]\`); error answers are \`Cache-Control: no-store\`. Each operation declares the statuses and response headers it can send.
Optional authentication: \`Authorization: Bearer <api_key>\` (keys are issued by the operators). An unrecognised key on scan routes is treated as anonymous.`

export function docsPlugin(config: Readonly<Config>, errors: AppErrors) {
  return (
    new Elysia({ name: 'docs' })
      // The generated document declares statuses from the routes' schemas and no headers; completeDocument adds what
      // the wire carries (core/openapi.ts). Local to this plugin, so only /openapi.json pays for the hook.
      .onAfterHandle(({ path, responseValue, set }) => {
        if (
          path === '/openapi.json' &&
          typeof responseValue === 'object' &&
          responseValue !== null &&
          !(responseValue instanceof Response)
        ) {
          // Public metadata: browser-based agents on other origins may read it (no credentials, nothing secret).
          set.headers['access-control-allow-origin'] = '*'
          return completeDocument(responseValue, errors)
        }
      })
      .get(
        '/swagger/assets/:file',
        ({ params, status }) => {
          const type = SWAGGER_ASSETS[params.file as keyof typeof SWAGGER_ASSETS]
          if (!type) return status(404, 'Not found')
          return new Response(Bun.file(join(swaggerDist, params.file)), {
            headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' },
          })
        },
        { detail: { hide: true } },
      )
      .use(
        openapi({
          path: '/swagger',
          specPath: '/openapi.json',
          provider: 'swagger-ui',
          swagger: {
            cdn: '/swagger/assets/swagger-ui-bundle.js',
            theme: '/swagger/assets/swagger-ui.css',
            autoDarkMode: false,
          },
          mapJsonSchema: {
            zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }),
          },
          // The /.well-known/* documents are part of the API; the plugin would otherwise skip every path with a dot.
          exclude: { staticFile: false, paths: ['/swagger', '/swagger/assets/:file', '/openapi.json'] },
          documentation: {
            info: { title: SERVICE_NAME, version: CONTRACT_VERSION, description: API_DESCRIPTION },
            servers: [{ url: config.publicBaseUrl }],
            components: {
              securitySchemes: {
                bearerKey: {
                  type: 'http',
                  scheme: 'bearer',
                  description: 'Scan or partner key issued by the operators (optional on every read and scan route).',
                },
              },
            },
          },
        }),
      )
  )
}

export const docsFeature = defineFeature<Pick<KernelPieces, 'config' | 'errors'>>()({
  name: 'docs',
  needs: ['config', 'errors'],
  provides: [],
  routes: ({ config, errors }) => docsPlugin(config, errors),
})
