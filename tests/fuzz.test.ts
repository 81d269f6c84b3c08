import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { AppHandle } from '../app/app.ts'
import {
  createFuzzApp,
  describeFailure,
  type DocumentedRoute,
  documentedRoutes,
  runFuzz,
} from './support/route-fuzz.ts'

/**
 * Every route of /openapi.json under generated hostile requests (see tests/support/route-fuzz.ts): no 5xx, a
 * request id on every answer, the error envelope on every 4xx. A reduced run here (FUZZ_RUNS, default 800);
 * `bun bench/fuzz.ts` runs 10,000 and prints the counts. FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 800)
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)

let handle: AppHandle
let routes: DocumentedRoute[]

beforeAll(async () => {
  handle = await createFuzzApp()
  routes = await documentedRoutes(handle.app)
}, 60_000)
afterAll(() => handle.close())

test('the fuzz covers every documented route', () => {
  expect(routes.length).toBeGreaterThan(30)
  for (const route of [
    'POST /api/scan',
    'GET /api/score/{domain}',
    'GET /api/v2/scan/{id}',
    'POST /api/mcp',
    'POST /api/ard/search',
  ]) {
    expect(routes.map((entry) => `${entry.method} ${entry.path}`)).toContain(route)
  }
})

test(`${RUNS} generated requests: no 5xx, every 4xx in its envelope with a request id`, async () => {
  const report = await runFuzz(handle.app, routes, { runs: RUNS, seed: SEED })
  console.log(`fuzz seed ${SEED}: ${report.total} requests by status ${JSON.stringify(report.byStatus)}`)
  expect(report.failures.slice(0, 10).map(describeFailure)).toEqual([])
  expect(report.total).toBe(RUNS)
  // Validation, not rate limiting, answers most requests.
  expect(report.byStatus['429'] ?? 0).toBeLessThan(RUNS / 4)
}, 120_000)
