import { describe, expect, test } from 'bun:test'
import { type ApiCatalogArtifact, parseLinkset } from '../../core/engine/collectors/api-catalog.ts'
import type { ApiSignals } from '../../core/engine/collectors/api-signals.ts'
import { parseLinkHeader } from '../../core/engine/lib/links.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './api-catalog.ts'

const URL = 'https://acme.test/.well-known/api-catalog'
const LINKSET = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'
const DOCUMENT = {
  linkset: [
    { anchor: 'https://api.acme.test/v1', 'service-desc': [{ href: '/openapi.json', type: 'application/json' }] },
  ],
}
const HEAD_LINK = `<${URL}>; rel="api-catalog"`

function catalog(body: unknown, contentType = LINKSET, headLink: string | null = HEAD_LINK): ApiCatalogArtifact {
  const get = jsonSnapshot(body, { url: URL, headers: { 'content-type': contentType } })
  const head = snapshot({ url: URL, headers: headLink ? { link: headLink } : {} })
  return {
    get,
    head,
    linkset: parseLinkset(get.body ? JSON.parse(get.body) : null, URL),
    headLinks: parseLinkHeader(headLink, URL),
  }
}

const missing: ApiCatalogArtifact = { get: notFound(URL), head: notFound(URL), linkset: null, headLinks: [] }
const withApi: ApiSignals = {
  hasApi: true,
  rest: true,
  graphql: false,
  reasons: ['OpenAPI document at https://acme.test/openapi.json'],
  hasAuth: false,
  authReasons: [],
}
const noApi: ApiSignals = { ...withApi, hasApi: false, rest: false, reasons: [] }

describe('api-catalog', () => {
  test.each([
    ['linkset with profile and HEAD link', catalog(DOCUMENT), withApi, 'pass'],
    ['a catalog is judged even without other API signals', catalog(DOCUMENT), noApi, 'pass'],
    ['served as application/json', catalog(DOCUMENT, 'application/json'), withApi, 'warning'],
    ['no profile parameter', catalog(DOCUMENT, 'application/linkset+json'), withApi, 'warning'],
    ['no Link on HEAD', catalog(DOCUMENT, LINKSET, null), withApi, 'warning'],
    [
      'one entry without anchor',
      catalog({ linkset: [...DOCUMENT.linkset, { 'service-doc': [{ href: '/docs' }] }] }),
      withApi,
      'warning',
    ],
    ['404 while the site has an API', missing, withApi, 'fail'],
    ['body is not a linkset', catalog({ apis: ['/v1'] }), withApi, 'fail'],
    ['empty linkset', catalog({ linkset: [] }), withApi, 'fail'],
    ['entries without relations', catalog({ linkset: [{ anchor: 'https://api.acme.test/' }] }), withApi, 'fail'],
    ['no API signals', missing, noApi, 'na'],
  ] as const)('%s -> %s', (_name, apiCatalog, apiSignals, expected) => {
    const outcome = check.run({ apiCatalog, apiSignals }, context)
    expect(outcome.status).toBe(expected)
    if (expected === 'na') expect(outcome.naReason).toBeString()
    else if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('parseLinkset resolves hrefs and keeps malformed entries', () => {
    expect(parseLinkset({ linkset: [DOCUMENT.linkset[0], 'junk'] }, URL)).toEqual([
      {
        anchor: 'https://api.acme.test/v1',
        relations: { 'service-desc': [{ href: 'https://acme.test/openapi.json', type: 'application/json' }] },
      },
      { relations: {} },
    ])
  })
})
