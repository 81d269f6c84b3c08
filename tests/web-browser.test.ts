import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { createBrowserProvider } from '../core/engine/browser-puppeteer.ts'
import { testConfig } from './helpers.ts'
import { type FixtureSite, startFixtureSite } from './fixtures/sites/server.ts'
import { startWorld, type World } from './support/world.ts'

/**
 * The web pages in a real Chromium (the system one, as the rendered checks use): a scan from the home page streams
 * its checks and lands on the report, the scan form works from the keyboard alone, and axe-core finds no
 * accessibility violation on any page. Screenshots go to test-output/web/ (gitignored).
 */
const runnable = createBrowserProvider(testConfig()) !== null
const executablePath =
  process.env.CHROMIUM_PATH ??
  Bun.which('chromium') ??
  Bun.which('chromium-browser') ??
  Bun.which('google-chrome') ??
  ''
const SCREENSHOTS = join(import.meta.dir, '..', 'test-output', 'web')

let world: World
/** The blog under a host no other test scanned, so the home-page scan runs live even on a shared database. */
let unscanned: FixtureSite
let browser: Browser
let base: string

beforeAll(async () => {
  if (!runnable) return
  mkdirSync(SCREENSHOTS, { recursive: true })
  // The app itself renders nothing (browser: null), so its scans finish at once and are complete.
  unscanned = await startFixtureSite('blog', { host: `blog-${randomUUID().slice(0, 8)}.test` })
  world = await startWorld(['poor', 'docs'], { browser: null, extraResolve: [unscanned.resolveRule], start: true })
  world.handle.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${world.handle.app.server!.port}`
  // The report the accessibility check reads; the fresh blog and poor.test are scanned by the tests themselves.
  const scanned = await fetch(`${base}/api/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'docs.test' }),
  })
  if (scanned.status !== 200) throw new Error(`docs.test scan answered ${scanned.status}`)
  browser = await puppeteer.launch({
    executablePath,
    headless: true,
    pipe: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  })
}, 60_000)

afterAll(async () => {
  if (!runnable) return
  await browser?.close()
  await world.handle.app.stop()
  await world.close()
  await unscanned.stop()
})

/** A page that fails the test on any CSP violation or script error it reports. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage()
  await page.setViewport({ width: 1200, height: 900 })
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 404/.test(message.text())) problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(String(error)))
  return { page, problems }
}

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: true })

describe.skipIf(!runnable)('web pages in Chromium', () => {
  test('a scan from the home page streams its checks per layer and lands on the report', async () => {
    const { page, problems } = await openPage()
    await page.goto(`${base}/`)
    const ticks: string[] = []
    await page.exposeFunction('reportTick', (text: string) => ticks.push(text))
    // Observes the progress list as the stream fills it; the page navigates away as soon as the scan completes.
    await page.evaluate(() => {
      const list = document.getElementById('progress-checks')!
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            (window as unknown as { reportTick(text: string): void }).reportTick(node.textContent ?? '')
      }).observe(list, { childList: true })
    })
    await page.type('#scan-target', unscanned.host)
    await Promise.all([
      page.waitForNavigation({ timeout: 45_000 }),
      page.click('form[data-scan-form] button[type="submit"]'),
    ])
    expect(new URL(page.url()).pathname).toBe(`/site/${unscanned.host}`)
    expect(ticks.length).toBeGreaterThan(10)

    const score = (await (await fetch(`${base}/api/score/${unscanned.host}`)).json()) as {
      score: number
      grade: string
      topFixes: { estScoreGain: number }[]
      layers: { maxScore: number }[]
    }
    expect(await page.$eval('.grade-letter', (element) => element.textContent)).toBe(score.grade)
    expect(await page.$eval('svg.gauge', (element) => element.getAttribute('aria-label'))).toBe(
      `Score ${score.score} out of 100, grade ${score.grade}`,
    )
    expect(await page.$$eval('.layers meter', (meters) => meters.length)).toBe(
      score.layers.filter((layer) => layer.maxScore > 0).length,
    )
    const fixes = score.topFixes.filter((fix) => fix.estScoreGain > 0)
    expect(fixes.length).toBeGreaterThan(0)
    expect(await page.$$eval('ol.fixes > li', (items) => items.length)).toBe(fixes.length)
    await screenshot(page, 'report-after-scan')
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  test('the scan form works from the keyboard alone: Tab to the field, type, Enter', async () => {
    const { page, problems } = await openPage()
    await page.goto(`${base}/`)
    let tabs = 0
    while (tabs < 15 && (await page.evaluate(() => document.activeElement?.id)) !== 'scan-target') {
      await page.keyboard.press('Tab')
      tabs++
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('scan-target')
    await page.keyboard.type('poor.test')
    await Promise.all([page.waitForNavigation({ timeout: 45_000 }), page.keyboard.press('Enter')])
    expect(new URL(page.url()).pathname).toBe('/site/poor.test')
    expect(await page.$eval('.grade-letter', (element) => element.textContent)).toBe('F')
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  const PAGES = [
    ['home', '/'],
    ['report', '/site/docs.test'],
    ['not-scanned', '/site/unknown-domain.test'],
    ['leaderboard', '/leaderboard'],
    ['checks', '/checks'],
    ['api', '/api'],
    ['journeys', '/journeys'],
  ] as const

  test('a journey run page follows the run live until it ends, without axe violations', async () => {
    const { AxePuppeteer } = await import('@axe-core/puppeteer')
    const { page, problems } = await openPage()
    await page.goto(`${base}/journeys`)
    await page.type('#journey-domain', 'docs.test')
    await Promise.all([page.waitForNavigation(), page.click('form[action="/journeys"] button[type="submit"]')])
    expect(new URL(page.url()).pathname).toMatch(/^\/journeys\/[^/]+$/)
    // The script reloads the page when the stream's result arrives; the server then renders the finished run.
    await page.waitForFunction(
      () => /Status: (completed|failed)/.test(document.getElementById('journey-status')?.textContent ?? ''),
      { timeout: 45_000 },
    )
    expect(await page.$$eval('#journey-steps li', (items) => items.length)).toBeGreaterThan(0)
    await screenshot(page, 'journey-run')
    const results = await new AxePuppeteer(page).analyze()
    expect(results.violations.map((violation) => violation.id)).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  test.each(PAGES)(
    '%s page (%s): no axe violations, no CSP report',
    async (name, path) => {
      // @axe-core/puppeteer is a devDependency; loaded here so that the rest of the suite runs without it.
      const { AxePuppeteer } = await import('@axe-core/puppeteer')
      const { page, problems } = await openPage()
      const response = await page.goto(`${base}${path}`)
      expect(response?.status()).toBe(name === 'not-scanned' ? 404 : 200)
      await screenshot(page, name)
      const results = await new AxePuppeteer(page).analyze()
      expect(
        results.violations.map(
          (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        ),
      ).toEqual([])
      expect(problems).toEqual([])
      await page.close()
    },
    60_000,
  )
})
