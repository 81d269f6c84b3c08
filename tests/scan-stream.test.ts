import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { EventSource } from 'eventsource'
import { createBrowserProvider } from '../core/engine/browser-puppeteer.ts'
import { z } from 'zod'
import { DEEP_SCAN_JOB } from '../plugins/scan/worker.ts'
import { testConfig } from './helpers.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/** Rendered checks need Chromium; .ci/run installs it, so CI always runs these. */
const browser = createBrowserProvider(testConfig())

let world: World
let base: string
beforeAll(async () => {
  world = await startWorld(['blog', 'spa'], {
    browser,
    mcp: [{ name: 'auth-required', hosts: ['locked.test'] }],
    start: true,
  })
  world.handle.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${world.handle.app.server!.port}`
})
afterAll(async () => {
  await world.handle.app.stop()
  await world.close()
})

interface Frame {
  type: string
  [key: string]: unknown
}

/** Reads every frame with a real EventSource client until the server closes the stream. */
function collect(query: string, timeoutMs = 90_000): Promise<Frame[]> {
  return new Promise((resolve, reject) => {
    const frames: Frame[] = []
    const ip = clientIp()
    const source = new EventSource(`${base}/api/scan/stream?${query}`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, 'x-forwarded-for': ip } }),
    })
    const timer = setTimeout(() => {
      source.close()
      reject(
        new Error(`stream did not close within ${timeoutMs} ms; got ${frames.map((frame) => frame.type).join(', ')}`),
      )
    }, timeoutMs)
    source.onmessage = (message) => frames.push(JSON.parse(message.data) as Frame)
    // EventSource reports the server closing the stream as an error and would reconnect: that is the end.
    source.onerror = () => {
      clearTimeout(timer)
      source.close()
      resolve(frames)
    }
  })
}

describe('GET /api/scan/stream', () => {
  test('emits the spec order: kind_detecting, kind_detected once before any check, checks in pairs, layers, completion', async () => {
    // Forced, so the order holds even when the database already has a fresh result for the site.
    const frames = await collect('domain=blog.test&force=1')
    const types = frames.map((frame) => frame.type)
    expect(types[0]).toBe('kind_detecting')
    expect(types.filter((type) => type === 'kind_detected')).toHaveLength(1)
    const firstCheck = types.indexOf('check_start')
    expect(types.indexOf('kind_detected')).toBeLessThan(firstCheck)
    expect(types.indexOf('scan_init')).toBeLessThan(firstCheck)

    const starts = frames.filter((frame) => frame.type === 'check_start')
    const completes = frames.filter((frame) => frame.type === 'check_complete')
    expect(completes.length).toBe(starts.length)
    for (const start of starts) {
      const completeAt = frames.findIndex((frame) => frame.type === 'check_complete' && frame.checkId === start.checkId)
      expect(completeAt).toBeGreaterThan(frames.indexOf(start))
    }
    for (const layer of frames.filter((frame) => frame.type === 'layer_complete')) {
      const layerAt = frames.indexOf(layer)
      const lastCheckOfLayer = Math.max(
        ...frames.map((frame, index) =>
          frame.type === 'check_complete' && frame.layerId === layer.layerId ? index : -1,
        ),
      )
      expect(layerAt).toBeGreaterThan(lastCheckOfLayer)
    }
    expect(frames.filter((frame) => frame.type === 'layer_complete')).toHaveLength(4)

    const complete = frames.find((frame) => frame.type === 'scan_complete')!
    const result = complete.result as { domain: string; analysisStatus: string; score: number }
    expect(result.domain).toBe('blog.test')
    // Rendered checks were pending at scan_complete; the worker finished them while the stream stayed open.
    if (result.analysisStatus === 'partial') {
      const summaryAt = types.indexOf('summary_ready')
      expect(summaryAt).toBeGreaterThan(types.indexOf('scan_complete'))
      expect(typeof frames[summaryAt]!.agenticSummary).toBe('string')
    }
    expect(types).not.toContain('error')
  }, 120_000)

  test('a freshness hit is kind_detected then scan_complete with servedFromCache, and an Age header', async () => {
    const frames = await collect('domain=blog.test')
    expect(frames.map((frame) => frame.type)).toEqual(['kind_detected', 'scan_complete'])
    expect(frames[1]).toMatchObject({ servedFromCache: true, resultAgeSeconds: expect.any(Number) })
    const raw = await fetch(`${base}/api/scan/stream?domain=blog.test`, { headers: { 'x-forwarded-for': clientIp() } })
    expect(raw.headers.get('content-type')).toStartWith('text/event-stream')
    expect(Number(raw.headers.get('age'))).toBeGreaterThanOrEqual(0)
    await raw.body?.cancel()
  })

  test('format=audit changes only the result inside scan_complete', async () => {
    const frames = await collect('domain=blog.test&format=audit')
    const result = frames.find((frame) => frame.type === 'scan_complete')!.result as Record<string, unknown>
    expect(result.contractVersion).toBeString()
    expect(result.scoreMax).toBe(100)
  })

  test('missing domain is a plain 400, not a stream', async () => {
    const response = await fetch(`${base}/api/scan/stream`, { headers: { 'x-forwarded-for': clientIp() } })
    expect(response.status).toBe(400)
    expect((await response.json()).code).toBe('VALIDATION_FAILED')
  })

  test('an MCP server requiring auth ends the stream with a terminal error event', async () => {
    const frames = await collect(`domain=${encodeURIComponent('https://locked.test/mcp')}`)
    const last = frames.at(-1)!
    expect(last).toMatchObject({
      type: 'error',
      code: 'MCP_AUTH_REQUIRED',
      mcpAuthRequired: true,
      mcpUrl: 'https://locked.test/mcp',
      urlKind: 'mcp',
    })
    expect(frames.some((frame) => frame.type === 'scan_complete')).toBe(false)
  })
})

describe.skipIf(browser === null)('rendered checks in the background', () => {
  test('a scan needing the browser answers 202 with Location, then completes and the score route returns it (junk on the queue notwithstanding)', async () => {
    // Payloads that are not our jobs (written by another producer or version) must not stop the worker.
    const foreignProducer = { ...DEEP_SCAN_JOB, data: z.unknown() }
    for (const junk of [{}, { scanId: 'x' }, { scanId: -1 }]) await world.handle.pieces.jobs.send(foreignProducer, junk)
    const ip = clientIp()
    const response = await world.handle.app.handle(
      new Request('http://localhost/api/scan', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ url: 'spa.test', force: true }),
      }),
    )
    expect(response.status).toBe(202)
    const location = response.headers.get('location')!
    expect(location).toBe('http://localhost:3000/api/score/spa.test')
    const partial = await response.json()
    expect(partial.analysisStatus).toBe('partial')
    expect(partial.pendingChecks).toContain('webmcp-tools')

    const deadline = Date.now() + 60_000
    let body: {
      analysisStatus: string
      pendingChecks: string[]
      layers: { checks: { id: string; status: string }[] }[]
      agenticSummary?: string
    }
    do {
      await Bun.sleep(500)
      const poll = await world.handle.app.handle(
        new Request(`http://localhost${new URL(location).pathname}`, { headers: { 'x-forwarded-for': clientIp() } }),
      )
      body = await poll.json()
    } while (body.analysisStatus !== 'complete' && Date.now() < deadline)
    expect(body.analysisStatus).toBe('complete')
    expect(body.pendingChecks).toEqual([])
    expect(typeof body.agenticSummary).toBe('string')
    const webmcp = body.layers.flatMap((layer) => layer.checks).find((check) => check.id === 'webmcp-tools')!
    expect(webmcp.status).toBe('pass')
  }, 90_000)
})
