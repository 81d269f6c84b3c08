/**
 * The full route fuzz (tests/fuzz.test.ts runs a reduced one): `bun bench/fuzz.ts [--runs 10000] [--seed N]`.
 * Prints the answers by status and every request that broke the rules (a 5xx, no request id, a 4xx outside the
 * error envelope); exits 1 when there was one.
 */
import { parseArgs } from 'node:util'
import { createFuzzApp, describeFailure, documentedRoutes, runFuzz } from '../tests/support/route-fuzz.ts'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string' } } })
const runs = Number(values.runs)
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed)

const handle = await createFuzzApp()
const routes = await documentedRoutes(handle.app)
const started = performance.now()
const report = await runFuzz(handle.app, routes, { runs, seed })
const seconds = (performance.now() - started) / 1000
console.log(`seed ${seed}: ${report.total} requests over ${routes.length} documented routes in ${seconds.toFixed(1)} s`)
for (const [status, count] of Object.entries(report.byStatus).sort(([a], [b]) => Number(a) - Number(b)))
  console.log(`  ${status}: ${count}`)
console.log(`failures: ${report.failures.length}`)
for (const failure of report.failures.slice(0, 50)) console.log(`  ${describeFailure(failure)}`)
await handle.close()
process.exit(report.failures.length > 0 ? 1 : 0)
