/**
 * Headers bound to one origin (a user's token for their own MCP server, CLI `--header`): sent to that origin on every
 * hop, never to another host, and dropped for good at the first redirect that leaves the origin, whatever their names.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loadConfig } from '../config.ts'
import { createOutboundClient } from './client.ts'
import { ScanSession } from './session.ts'

const SECRET = { authorization: 'Bearer owner-secret', 'x-api-key': 'key-secret' }
let server: ReturnType<typeof Bun.serve>
let session: ScanSession
/** What each host received, by path. */
const received: { host: string; path: string; headers: Record<string, string> }[] = []

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const host = (request.headers.get('host') ?? '').replace(/:\d+$/, '')
      const path = new URL(request.url).pathname
      received.push({ host, path, headers: Object.fromEntries(request.headers) })
      if (path === '/stay') return new Response(null, { status: 302, headers: { location: '/echo' } })
      if (path === '/leave')
        return new Response(null, { status: 307, headers: { location: 'https://other.test/back' } })
      if (path === '/back') return new Response(null, { status: 302, headers: { location: 'https://owner.test/echo' } })
      return new Response('ok')
    },
  })
  const rules = ['owner.test', 'other.test'].map((host) => `${host}:443:127.0.0.1:${server.port}`).join(',')
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: rules })
  session = new ScanSession(createOutboundClient(config, null), config, {
    origin: 'https://owner.test',
    headers: { Authorization: SECRET.authorization, 'X-Api-Key': SECRET['x-api-key'] },
  })
})
afterAll(() => server.stop(true))

const secretsIn = (headers: Record<string, string>) =>
  Object.values(headers).filter((value) => value === SECRET.authorization || value === SECRET['x-api-key'])

test('the origin gets the headers on every hop that stays on it, streams included', async () => {
  received.length = 0
  await session.request('https://owner.test/stay')
  await (await session.stream('https://owner.test/echo', { method: 'POST', body: '{}' })).text()
  expect(received.map((entry) => [entry.path, entry.headers.authorization, entry.headers['x-api-key']])).toEqual([
    ['/stay', SECRET.authorization, SECRET['x-api-key']],
    ['/echo', SECRET.authorization, SECRET['x-api-key']],
    ['/echo', SECRET.authorization, SECRET['x-api-key']],
  ])
})

test('another host never gets them: not when asked directly, not after a redirect, not when a redirect comes back', async () => {
  received.length = 0
  await session.request('https://other.test/echo')
  await session.request('https://owner.test/leave')
  expect(received.map((entry) => `${entry.host}${entry.path}`)).toEqual([
    'other.test/echo',
    'owner.test/leave',
    'other.test/back',
    'owner.test/echo',
  ])
  expect(received.filter((entry) => entry.host === 'other.test').flatMap((entry) => secretsIn(entry.headers))).toEqual(
    [],
  )
  // Once dropped they stay dropped: the hop back to the origin came from the other host.
  expect(secretsIn(received.at(-1)!.headers)).toEqual([])
})

test('a header the request sets itself wins over the bound one', async () => {
  received.length = 0
  await session.request('https://owner.test/echo', { headers: { authorization: 'Bearer probe' } })
  expect(received[0]!.headers).toMatchObject({ authorization: 'Bearer probe', 'x-api-key': SECRET['x-api-key'] })
})
