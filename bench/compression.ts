// What gzip/brotli costs per response and saves in bytes (plugins/web/compression.ts), on two real documents:
// the check catalog as /api/checks serves it and the /checks page. Run: bun bench/compression.ts
import { REGISTERED_CHECKS } from '../checks/index.ts'
import { buildCatalog } from '../core/engine/catalog.ts'
import { CheckRegistry } from '../core/engine/registry.ts'
import { compress } from '../core/compression.ts'
import { ChecksPage } from '../plugins/web/pages/checks.tsx'
import { median, percentile } from './stats.ts'

const ROUNDS = 300
const catalog = buildCatalog(new CheckRegistry(REGISTERED_CHECKS), { essentials: false })
const documents = [
  { name: '/api/checks (JSON)', type: 'application/json', body: JSON.stringify(catalog) },
  {
    name: '/checks (HTML)',
    type: 'text/html; charset=utf-8',
    body: await ChecksPage({ catalog, query: {}, baseUrl: 'https://example.org', nonce: 'bench' }),
  },
]

for (const document of documents) {
  for (const coding of ['br', 'gzip'] as const) {
    const times: number[] = []
    let bytes = 0
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now()
      const response = await compress(
        new Request('https://example.org/', { headers: { 'accept-encoding': coding } }),
        new Response(document.body, { headers: { 'content-type': document.type } }),
      )
      bytes = (await response.arrayBuffer()).byteLength
      times.push(performance.now() - started)
    }
    const sorted = times.toSorted((a, b) => a - b)
    const size = Buffer.byteLength(document.body)
    console.log(
      `${document.name.padEnd(20)} ${coding.padEnd(4)} ${String(size).padStart(7)} -> ${String(bytes).padStart(6)} bytes (${((1 - bytes / size) * 100).toFixed(0)}% saved)  median ${median(times).toFixed(2)} ms  p95 ${percentile(sorted, 95).toFixed(2)} ms`,
    )
  }
}
