import { afterAll, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { createApp } from '../app/app.ts'
import { defineErrors, ERROR_ENVELOPE, type ErrorEnvelope } from '../core/errors.ts'
import {
  type BackgroundWork,
  backgroundRunner,
  checkFeatures,
  composeFeatures,
  defineFeature,
  FeatureError,
  type FeatureErrors,
  featureErrors,
} from '../core/feature.ts'
import { testConfig } from './helpers.ts'

/** Background work that writes what happens to it in one shared log, to read the order back. */
function recorded(log: string[], name: string): BackgroundWork {
  return { start: () => void log.push(`start ${name}`), stop: () => void log.push(`stop ${name}`) }
}

const counter = defineFeature<{ base: number }, { doubled: number }>()({
  name: 'counter',
  needs: ['base'],
  provides: ['doubled'],
  provide: ({ base }) => ({ doubled: base * 2 }),
  routes: ({ doubled }) => new Elysia().get('/doubled', () => String(doubled)),
})
const reader = defineFeature<{ doubled: number }>()({
  name: 'reader',
  needs: ['doubled'],
  provides: [],
  routes: ({ doubled }) => new Elysia().get('/reader', () => String(doubled + 1)),
})

test('features are built in order over the kernel, each from the pieces it declared', async () => {
  const composed = composeFeatures({ base: 21, unrelated: 'x' }, [counter, reader])
  expect(composed.pieces).toEqual({ base: 21, unrelated: 'x', doubled: 42 })
  const app = composed.routes.reduce((all, routes) => all.use(routes), new Elysia())
  expect(await (await app.handle(new Request('http://localhost/reader'))).text()).toBe('43')
})

test('a need nobody earlier provides fails at boot, naming the feature and the piece', () => {
  expect(() => composeFeatures({ base: 1 }, [reader, counter])).toThrow(
    new FeatureError(
      'Feature "reader" needs "doubled", which neither the kernel nor a feature listed before it provides',
    ),
  )
})

test('a piece provided twice, or provided other than declared, fails at boot', () => {
  expect(() => composeFeatures({ base: 1, doubled: 0 }, [counter])).toThrow(
    'Feature "counter" provides "doubled", which the kernel already provides',
  )
  const liar = defineFeature<{ base: number }, { doubled: number }>()({
    name: 'liar',
    needs: ['base'],
    provides: ['doubled'],
    provide: () => ({}) as { doubled: number },
  })
  expect(() => composeFeatures({ base: 1 }, [liar])).toThrow('Feature "liar" declares provides [doubled] but built []')
})

/** A feature that declares only errors. */
const declaring = (name: string, errors: FeatureErrors) =>
  defineFeature<object>()({ name, needs: [], provides: [], errors })

test('an error code declared twice fails at boot, whether the kernel or a feature declared it first', () => {
  const mail = declaring('mail', {
    codes: defineErrors({ MAIL_FAILED: { status: 500, title: 'Mail delivery failed' } }),
  })
  const again = declaring('again', { codes: defineErrors({ MAIL_FAILED: { status: 502, title: 'Other' } }) })
  const shadow = declaring('shadow', { codes: defineErrors({ NOT_FOUND: { status: 404, title: 'Not found' } }) })
  expect(() => checkFeatures([], [mail, again])).toThrow(
    new FeatureError('Feature "again" declares error code MAIL_FAILED, which feature "mail" declares'),
  )
  expect(() => checkFeatures([], [shadow])).toThrow(
    new FeatureError('Feature "shadow" declares error code NOT_FOUND, which the kernel declares'),
  )
  expect(featureErrors([mail]).codes.get('MAIL_FAILED')).toEqual({
    code: 'MAIL_FAILED',
    status: 500,
    title: 'Mail delivery failed',
  })
})

test("each path's errors take the envelope a feature claims for it, the kernel's elsewhere", () => {
  const plain: ErrorEnvelope = {
    ...ERROR_ENVELOPE,
    schemaName: 'PlainError',
    head: (error) => ({ oops: error.message }),
  }
  const terse: ErrorEnvelope = { ...plain, schemaName: 'TerseError' }
  const errors = featureErrors([
    declaring('plain', { envelope: { prefixes: ['/api/plain'], envelope: plain } }),
    declaring('nested', { envelope: { prefixes: ['/api/plain/terse'], envelope: terse } }),
    declaring('shared', { envelope: { prefixes: ['/api/plain'], envelope: plain } }),
  ])
  expect(errors.envelopeFor('/api/plain')).toBe(plain)
  expect(errors.envelopeFor('/api/plain/x')).toBe(plain)
  expect(errors.envelopeFor('/api/plain/terse/x')).toBe(terse)
  expect(errors.envelopeFor('/api/plainly')).toBe(ERROR_ENVELOPE)
  expect(errors.envelopes).toEqual([ERROR_ENVELOPE, plain, terse])
  expect(() =>
    featureErrors([
      declaring('plain', { envelope: { prefixes: ['/api/plain'], envelope: plain } }),
      declaring('rival', { envelope: { prefixes: ['/api/plain'], envelope: terse } }),
    ]),
  ).toThrow(
    new FeatureError(
      'Feature "rival" claims /api/plain for the TerseError envelope, which feature "plain" claims for PlainError',
    ),
  )
})

test('background work starts in feature order, once, and stops in reverse', async () => {
  const log: string[] = []
  const worker = (name: string) =>
    defineFeature<{ base: number }>()({ name, needs: ['base'], provides: [], background: () => [recorded(log, name)] })
  const { background } = composeFeatures({ base: 1 }, [worker('first'), worker('second')])
  expect(background.map(({ feature }) => feature)).toEqual(['first', 'second'])
  const runner = backgroundRunner(background.map(({ work }) => work))
  await Promise.all([runner.start(), runner.start()])
  await runner.stop()
  expect(log).toEqual(['start first', 'start second', 'stop second', 'stop first'])
})

test('a start that fails half-way stops only what it started', async () => {
  const log: string[] = []
  const broken: BackgroundWork = {
    start: () => Promise.reject(new Error('no queue')),
    stop: () => void log.push('stop broken'),
  }
  const runner = backgroundRunner([recorded(log, 'feed'), broken, recorded(log, 'worker')])
  await expect(runner.start()).rejects.toThrow('no queue')
  await runner.stop()
  expect(log).toEqual(['start feed', 'stop feed'])
})

test('nothing stops that never started', async () => {
  const log: string[] = []
  await backgroundRunner([recorded(log, 'feed')]).stop()
  expect(log).toEqual([])
})

const apps: { close(): Promise<void> }[] = []
afterAll(() => Promise.all(apps.map((app) => app.close())))

test('createApp composes only the features asked for and refuses a selection whose needs are not met', async () => {
  await expect(createApp(testConfig(), { browser: null, features: ['mcp'] })).rejects.toThrow(
    'Feature "mcp" needs "scanService", "feedbackService"',
  )
  const handle = await createApp(testConfig(), { browser: null, features: ['ops'] })
  apps.push(handle)
  expect((await handle.app.handle(new Request('http://localhost/healthz'))).status).toBe(200)
  expect((await handle.app.handle(new Request('http://localhost/api/checks'))).status).toBe(404)
  expect('scanService' in handle.pieces).toBe(false)
}, 60_000)

test('createApp starts nothing until start(): the job queue takes no job before it', async () => {
  const handle = await createApp(testConfig(), { browser: null, features: ['scan'] })
  apps.push(handle)
  const send = () => handle.pieces.jobs.send({ name: 'probe', data: { parse: (value: unknown) => value } } as never, {})
  await expect(send()).rejects.toThrow('sent before the job queue was started')
}, 60_000)
