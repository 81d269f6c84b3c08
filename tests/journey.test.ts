import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { EventSource } from 'eventsource'
import { z } from 'zod'
import { CONTRACT_VERSION } from '../core/version.ts'
import { journeyRun, journeyRunGraph } from '../plugins/journey/model.ts'
import { clientIp, startWorld, type World } from './support/world.ts'
import { createRun, getPath, isDeepSubset, readFrames, untilEnded } from './support/journey.ts'
import { request } from './helpers.ts'

/** A curated run end to end against a fixture site: create, execute in the background, read, stream, project. */
let world: World
let partnerKey: string
let scanKey: string
beforeAll(async () => {
  world = await startWorld(['excellent'], { browser: null, env: { WORKER_CONCURRENCY: '4' }, start: true })
  partnerKey = (await world.handle.pieces.keys.create('partner', 'journey test partner')).key
  scanKey = (await world.handle.pieces.keys.create('scan', 'journey test scan')).key
})
afterAll(() => world.close())

const pricing = { intent: { id: 'find-pricing' }, domain: 'excellent.test' }

describe('POST /api/journey/runs', () => {
  test('201: a queued run record with an absolute stream_url, the intent echo and per-target rate headers', async () => {
    const response = await createRun(world.handle, pricing)
    expect(response.status).toBe(201)
    const body = (await response.json()) as Record<string, unknown>
    expect(body.id).toMatch(/^jr_/)
    expect(['queued', 'running']).toContain(body.status as string)
    expect(body).toMatchObject({
      intent_id: 'find-pricing',
      domain: 'excellent.test',
      agent: { id: 'deterministic' },
      finished_at: null,
      verdict: null,
      contractVersion: CONTRACT_VERSION,
      intent: { id: 'find-pricing' },
      stream_url: `http://localhost:3000/api/journey/runs/${body.id}/stream`,
    })
    expect(response.headers.get('x-ratelimit-limit')).toBe('100')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('99')
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
  })

  test('the run completes in the background: GET shows the verdict and every step', async () => {
    const created = (await (await createRun(world.handle, pricing)).json()) as { id: string }
    const run = await untilEnded(world.handle, created.id)
    expect(run.status).toBe('completed')
    expect(run).not.toHaveProperty('intent')
    expect((run.verdict as { outcome: string }).outcome).toBe('success')
    const steps = run.steps as { id: string }[]
    expect(steps.length).toBeGreaterThan(0)
    expect(run.step_count).toBe(steps.length)
    expect(typeof run.started_at).toBe('string')
    expect(typeof run.finished_at).toBe('string')
    expect(run.trajectory_digest).toMatch(/^[0-9a-f]{64}$/)
    expect(journeyRun.safeParse(run).success).toBe(true)
  })

  test('a stream opened after the run finished replays every step, then the result', async () => {
    const created = (await (await createRun(world.handle, pricing)).json()) as { id: string }
    const run = await untilEnded(world.handle, created.id)
    const response = await getPath(world.handle, `/api/journey/runs/${created.id}/stream`)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const frames = await readFrames(response)
    expect(frames[0]).toEqual({ event: 'run_id', data: { run_id: created.id } })
    const trajectory = frames.filter((frame) => frame.event === 'trajectory')
    expect(trajectory.map((frame) => frame.data.seq)).toEqual((run.steps as unknown[]).map((_, index) => index))
    expect(trajectory.map((frame) => frame.data.step)).toEqual(run.steps as Record<string, unknown>[])
    const last = frames.at(-1)!
    expect(last.event).toBe('result')
    expect(last.data).toEqual(run)
  })

  test('a graph-stream key gets graph-narrowed frames: step identity only, the graph projection as result', async () => {
    const graphKey = (await world.handle.pieces.keys.create('graph-stream', 'journey graph stream')).key
    const created = (await (await createRun(world.handle, pricing)).json()) as { id: string }
    const run = await untilEnded(world.handle, created.id)
    const frames = await readFrames(
      await getPath(world.handle, `/api/journey/runs/${created.id}/stream`, { authorization: `Bearer ${graphKey}` }),
    )
    const steps = frames
      .filter((frame) => frame.event === 'trajectory')
      .map((frame) => frame.data.step as Record<string, unknown>)
    expect(steps.length).toBe(run.step_count as number)
    for (const step of steps)
      expect(Object.keys(step).sort()).toEqual([
        'action',
        'duration_ms',
        'id',
        'label',
        'parent_id',
        'status',
        'tool',
        'turn',
        'type',
      ])
    const result = frames.at(-1)!
    expect(result.event).toBe('result')
    expect(journeyRunGraph.strict().safeParse(result.data).success).toBe(true)
    expect(isDeepSubset(result.data, run)).toBe(true)
  })

  test('a stream opened while the run goes ends with processing then result, every step exactly once', async () => {
    const created = (await (await createRun(world.handle, pricing)).json()) as { id: string }
    const frames = await readFrames(await getPath(world.handle, `/api/journey/runs/${created.id}/stream`))
    const events = frames.map((frame) => frame.event)
    expect(events[0]).toBe('run_id')
    expect(events.at(-1)).toBe('result')
    const seqs = frames.filter((frame) => frame.event === 'trajectory').map((frame) => frame.data.seq)
    expect(seqs).toEqual(seqs.map((_, index) => index))
    expect((frames.at(-1)!.data as { step_count: number }).step_count).toBe(seqs.length)
    // `processing` comes once, after the last step, unless the run had already ended when the stream looked.
    if (events.includes('processing')) expect(events.indexOf('processing')).toBe(events.length - 2)
  })

  test('strict body: unknown fields, a curated intent without domain, unknown ids and private agents are 400', async () => {
    const invalid = [
      { ...pricing, extra: true },
      { intent: { id: 'find-pricing', extra: 1 }, domain: 'excellent.test' },
      { intent: { id: 'find-pricing' } },
      { intent: { id: 'no-such-intent' }, domain: 'excellent.test' },
      { ...pricing, agent: 'no-such-agent' },
      { intent: { custom: 'ab', domain: 'excellent.test' } },
      { ...pricing, domain: 'not a domain' },
      {},
    ]
    for (const body of invalid) {
      const response = await createRun(world.handle, body)
      expect({ body, status: response.status }).toEqual({ body, status: 400 })
      const error = (await response.json()) as { code: string }
      expect(['VALIDATION_FAILED', 'INVALID_DOMAIN']).toContain(error.code)
    }
  })

  test('free text: 401 without a key or with a key lacking the capability; 201 with the echo for a partner key', async () => {
    const custom = { intent: { custom: 'Find the developer documentation', domain: 'excellent.test' } }
    for (const headers of [
      {},
      { authorization: 'Bearer ark_unknown' },
      { authorization: `Bearer ${scanKey}` },
    ] as Record<string, string>[]) {
      const response = await createRun(world.handle, custom, headers)
      expect(response.status).toBe(401)
      expect(((await response.json()) as { code: string }).code).toBe('CUSTOM_INTENT_REQUIRES_KEY')
    }
    const response = await createRun(world.handle, custom, { authorization: `Bearer ${partnerKey}` })
    expect(response.status).toBe(201)
    const body = (await response.json()) as Record<string, unknown>
    expect(body.intent).toEqual({ custom: 'Find the developer documentation', domain: 'excellent.test' })
    expect(body.intent_id).toBe('custom')
    // Keyed: the headers describe the key's own daily window.
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000')
    expect((await untilEnded(world.handle, body.id as string)).status).toBe('completed')
  })

  test('a curated run with an unrecognised key runs anonymously', async () => {
    const response = await createRun(world.handle, pricing, { authorization: 'Bearer ark_not_a_key' })
    expect(response.status).toBe(201)
    expect(response.headers.get('x-ratelimit-limit')).toBe('100')
  })
})

describe('journey reads', () => {
  test('GET /api/journey/runs/{id}: 404 NOT_FOUND for unknown or malformed ids', async () => {
    for (const id of ['jr_AAAAAAAAAAAAAAAAAAAAAA', 'nope', '1']) {
      const response = await getPath(world.handle, `/api/journey/runs/${id}`)
      expect(response.status).toBe(404)
      expect(((await response.json()) as { code: string }).code).toBe('NOT_FOUND')
      expect((await getPath(world.handle, `/api/journey/runs/${id}/stream`)).status).toBe(404)
    }
  })

  test('GET /api/journey/intents and /api/journey/agents list what a create accepts', async () => {
    const intents = (await (await getPath(world.handle, '/api/journey/intents')).json()) as {
      contractVersion: string
      intents: { id: string; layers: string[] }[]
    }
    expect(intents.contractVersion).toBe(CONTRACT_VERSION)
    expect(intents.intents.map((intent) => intent.id)).toContain('find-pricing')
    for (const intent of intents.intents)
      expect(Object.keys(intent).sort()).toEqual(['id', 'layers', 'prompt', 'title'])
    const agents = (await (await getPath(world.handle, '/api/journey/agents')).json()) as {
      agents: Record<string, string | null>[]
    }
    expect(agents.agents).toContainEqual({
      id: 'deterministic',
      harness: 'builtin',
      model: 'deterministic',
      label: expect.any(String),
      user_agent: world.handle.pieces.config.scanner.userAgent,
      identity: 'self',
      identity_source: null,
    })
    // One identity per AI assistant's user-triggered fetcher, with the exact User-Agent it sends and where it is published.
    const assistants = agents.agents.filter((agent) => agent.identity !== 'self')
    expect(assistants.map((agent) => agent.identity)).toEqual([
      'ChatGPT-User',
      'Claude-User',
      'Perplexity-User',
      'MistralAI-User',
    ])
    for (const agent of assistants) {
      expect(agent.user_agent).toContain(`${agent.identity}/1.0`)
      expect(agent.identity_source!).toStartWith('https://')
    }
    // The browser baseline of compare runs is not runnable on its own.
    expect(agents.agents.map((agent) => agent.id)).not.toContain('browser')
  })
})

describe('POST /api/journey/domains/{host}', () => {
  const domains = (view: string, headers: Record<string, string>, json?: unknown) =>
    world.handle.app.handle(
      request(`/api/journey/domains/excellent.test${view ? `?view=${view}` : ''}`, {
        method: 'POST',
        json,
        headers: { 'x-forwarded-for': clientIp(), ...headers },
      }),
    )

  test('401 PARTNER_KEY_REQUIRED without a partner key, whatever the body', async () => {
    for (const headers of [{}, { authorization: `Bearer ${scanKey}` }] as Record<string, string>[]) {
      for (const json of [undefined, { limit: 5 }, { bogus: true }]) {
        const response = await domains('', headers, json)
        expect(response.status).toBe(401)
        expect(((await response.json()) as { code: string }).code).toBe('PARTNER_KEY_REQUIRED')
      }
    }
  })

  test('strict body and view: 400', async () => {
    const auth = { authorization: `Bearer ${partnerKey}` }
    expect((await domains('', auth, { limit: 0 })).status).toBe(400)
    expect((await domains('', auth, { limit: 5, extra: 1 })).status).toBe(400)
    expect((await domains('tree', auth)).status).toBe(400)
  })

  test('graph (default) is a strict subset of full, field by field; the aggregate covers the runs', async () => {
    const finished = (await (await createRun(world.handle, pricing)).json()) as { id: string }
    await untilEnded(world.handle, finished.id)
    const auth = { authorization: `Bearer ${partnerKey}` }
    const graph = (await (await domains('', auth, { limit: 100 })).json()) as {
      view: string
      runs: Record<string, unknown>[]
      aggregate: Record<string, unknown>
    }
    const full = (await (await domains('full', auth, { limit: 100 })).json()) as {
      view: string
      runs: Record<string, unknown>[]
      aggregate: Record<string, unknown>
    }
    expect(graph.view).toBe('graph')
    expect(full.view).toBe('full')
    expect(graph.runs.map((run) => run.id)).toEqual(full.runs.map((run) => run.id))
    const finishedIds = full.runs.filter((run) => run.status === 'completed').map((run) => run.id)
    expect(finishedIds).toContain(finished.id)
    for (const [index, run] of graph.runs.entries()) {
      if (run.status !== 'completed') continue
      expect(isDeepSubset(run, full.runs[index])).toBe(true)
      expect(Object.keys(run).length).toBeLessThan(Object.keys(full.runs[index]!).length)
    }
    expect(graph.aggregate).toEqual(full.aggregate)
    const aggregate = full.aggregate as {
      runs: number
      completed: number
      median_steps: number
      success_rates: { intent_id: string; success_rate: number }[]
    }
    expect(aggregate.runs).toBe(full.runs.length)
    expect(aggregate.median_steps).toBeGreaterThan(0)
    expect(aggregate.success_rates.find((entry) => entry.intent_id === 'find-pricing')!.success_rate).toBe(1)
  })

  test('the graph schema is a strict subset of the full schema', () => {
    const graphSchema = z.toJSONSchema(journeyRunGraph, { io: 'output' }) as JsonSchema
    const fullSchema = z.toJSONSchema(journeyRun, { io: 'output' }) as JsonSchema
    expect(schemaSubset(graphSchema, fullSchema, '')).toEqual([])
    expect(Object.keys(graphSchema.properties!).length).toBeLessThan(Object.keys(fullSchema.properties!).length)
  })
})

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
}

/** Paths where `part` names a field or a type `whole` does not have: empty when every graph field is in full. */
function schemaSubset(part: JsonSchema, whole: JsonSchema, path: string): string[] {
  const variants = (schema: JsonSchema) => schema.anyOf ?? [schema]
  const problems: string[] = []
  for (const variant of variants(part)) {
    const match = variants(whole).find((candidate) => JSON.stringify(candidate.type) === JSON.stringify(variant.type))
    if (!match) {
      problems.push(`${path}: type ${JSON.stringify(variant.type)}`)
      continue
    }
    if (variant.enum && !variant.enum.every((value) => match.enum?.includes(value))) problems.push(`${path}: enum`)
    for (const [key, child] of Object.entries(variant.properties ?? {})) {
      const counterpart = match.properties?.[key]
      if (!counterpart) problems.push(`${path}.${key}: missing in full`)
      else problems.push(...schemaSubset(child, counterpart, `${path}.${key}`))
    }
    if (variant.items) {
      if (!match.items) problems.push(`${path}[]: missing in full`)
      else problems.push(...schemaSubset(variant.items, match.items, `${path}[]`))
    }
  }
  return problems
}

describe('the run stream with a real EventSource client', () => {
  test('named events arrive in order: run_id, every trajectory step, then result', async () => {
    const server = world.handle.app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const created = (await (await createRun(world.handle, pricing)).json()) as { id: string; stream_url: string }
      const streamUrl = new URL(created.stream_url)
      const events: { type: string; data: Record<string, unknown> }[] = []
      await new Promise<void>((resolve, reject) => {
        const source = new EventSource(`http://127.0.0.1:${server.server!.port}${streamUrl.pathname}`)
        const timer = setTimeout(() => {
          source.close()
          reject(new Error(`no result within 60 s; got ${events.map((event) => event.type).join(', ')}`))
        }, 60_000)
        for (const type of ['run_id', 'trajectory', 'processing', 'result', 'error']) {
          source.addEventListener(type, (message) => {
            events.push({ type, data: JSON.parse(message.data) })
            if (type === 'result' || type === 'error') {
              clearTimeout(timer)
              source.close()
              resolve()
            }
          })
        }
      })
      const run = await untilEnded(world.handle, created.id)
      expect(events[0]).toEqual({ type: 'run_id', data: { run_id: created.id } })
      expect(events.filter((event) => event.type === 'trajectory').map((event) => event.data.step)).toEqual(
        run.steps as Record<string, unknown>[],
      )
      expect(events.at(-1)).toEqual({ type: 'result', data: run })
    } finally {
      await server.stop(true)
    }
  })
})
