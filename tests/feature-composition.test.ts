import { afterAll, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { z } from 'zod'
import { createApp } from '../app/app.ts'
import { booleanFlag, type Config, ConfigError, configKeys } from '../core/config.ts'
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
import { defineLimits, MINUTE } from '../core/limits.ts'
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

test('two limits of one name fail at boot, whichever features declare them: the name keys their counters', () => {
  const burst = (limit: number) =>
    defineLimits({ burst: { limit, windowMs: MINUTE, durable: false, per: 'ip', exempt: [] } })
  const limiting = (name: string, limit: number) =>
    defineFeature<{ base: number }>()({ name, needs: ['base'], provides: [], limits: burst(limit) })
  expect(() => composeFeatures({ base: 1 }, [limiting('first', 10), limiting('second', 20)])).toThrow(
    new FeatureError(
      'Feature "second" declares the limit "burst", which feature "first" already declares: one name keys one set of counters',
    ),
  )
})

/** A feature whose `config` carries a flag of its own, read from FLAG_ENABLED. */
const FLAG_KEYS = configKeys({ FLAG_ENABLED: booleanFlag.default(false) }, (values, config) => ({
  flag: values.FLAG_ENABLED,
  flagHost: new URL(config.publicBaseUrl).hostname,
}))
const flagged = defineFeature<{ config: Readonly<Config & ReturnType<typeof FLAG_KEYS.settings>> }>()({
  name: 'flagged',
  needs: ['config'],
  provides: [],
  configKeys: FLAG_KEYS,
  routes: ({ config }) => new Elysia().get('/flag', () => `${config.flag} ${config.flagHost} ${config.port}`),
})
const bystander = defineFeature<{ config: Readonly<Config> }>()({
  name: 'bystander',
  needs: ['config'],
  provides: [],
  routes: ({ config }) => new Elysia().get('/bystander', () => String('flag' in config)),
})

test("a feature's own variables join the kernel's config in its config piece, and only in its own", async () => {
  const answer = async (env: Record<string, string>, path: string) => {
    const { routes } = composeFeatures({ config: testConfig(env) }, [flagged, bystander])
    const app = routes.reduce((all, each) => all.use(each), new Elysia())
    return (await app.handle(new Request(`http://localhost${path}`))).text()
  }
  expect(await answer({}, '/flag')).toBe('false localhost 3000')
  expect(await answer({ FLAG_ENABLED: 'yes' }, '/flag')).toBe('true localhost 3000')
  expect(await answer({ FLAG_ENABLED: 'yes' }, '/bystander')).toBe('false')
})

test("an invalid value of a feature's variable stops the boot, named as loadConfig names the kernel's", () => {
  try {
    composeFeatures({ config: testConfig({ FLAG_ENABLED: 'maybe' }) }, [flagged])
    throw new Error('expected a ConfigError')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).message).toStartWith('Invalid configuration:\n  - FLAG_ENABLED: ')
  }
})

test('a variable read twice, by the kernel and a feature or by two features, fails at boot', () => {
  const reading = (name: string, variable: string) =>
    defineFeature<{ config: Readonly<Config> }>()({
      name,
      needs: ['config'],
      provides: [],
      configKeys: configKeys({ [variable]: z.string().optional() }, () => ({})),
    })
  const kernel = { config: testConfig() }
  expect(() => composeFeatures(kernel, [reading('porter', 'PORT')])).toThrow(
    new FeatureError('Feature "porter" reads PORT, which the kernel already reads'),
  )
  expect(() => composeFeatures(kernel, [flagged, reading('copy', 'FLAG_ENABLED')])).toThrow(
    new FeatureError('Feature "copy" reads FLAG_ENABLED, which feature "flagged" already reads'),
  )
})

test("a feature's settings may not hide the kernel's config", () => {
  const hiding = defineFeature<{ config: Readonly<Config> }>()({
    name: 'hiding',
    needs: ['config'],
    provides: [],
    configKeys: configKeys({}, () => ({ port: 1 })),
  })
  expect(() => composeFeatures({ config: testConfig() }, [hiding])).toThrow(
    new FeatureError('Feature "hiding" builds settings "port", which the kernel\'s config already holds'),
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

test("createApp refuses an invalid variable of a feature's own, as loadConfig refuses the kernel's", async () => {
  await expect(createApp(testConfig({ SMTP_URL: 'http://mail.test' }), { browser: null })).rejects.toThrow(
    new ConfigError(['SMTP_URL: expected smtp://… or smtps://…']),
  )
  await expect(
    createApp(testConfig({ V2_SCAN_ENABLED: 'maybe' }), { browser: null, features: ['scan'] }),
  ).rejects.toThrow(/V2_SCAN_ENABLED/)
})

test('createApp starts nothing until start(): the job queue takes no job before it', async () => {
  const handle = await createApp(testConfig(), { browser: null, features: ['scan'] })
  apps.push(handle)
  const send = () => handle.pieces.jobs.send({ name: 'probe', data: { parse: (value: unknown) => value } } as never, {})
  await expect(send()).rejects.toThrow('sent before the job queue was started')
}, 60_000)
