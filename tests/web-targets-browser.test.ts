import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { siteHandler } from './fixtures/sites/server.ts'
import { clientIp, startWorld, type World } from './support/world.ts'
import { axeViolations } from './support/axe.ts'

/**
 * One report per target as a person meets it in Chromium, through the home form with JavaScript (the streamed scan):
 * two local servers differing only by port get two reports; an MCP URL and then its bare host leave both reports,
 * and "Scan again" on the MCP report rescans the MCP server; `localhost:PORT` has a report; none of them is on the
 * leaderboard; a result served from the cache says so, with its age and a fresh scan; a protected MCP server lands
 * on a page naming `--header-env`. Screenshots go to test-output/web/ (gitignored).
 */
const executablePath =
  process.env.CHROMIUM_PATH ??
  Bun.which('chromium') ??
  Bun.which('chromium-browser') ??
  Bun.which('google-chrome') ??
  ''
const SCREENSHOTS = join(import.meta.dir, '..', 'test-output', 'web')
// A host no other suite (nor an earlier run on the same database) scans, or a stored result would answer from the cache.
const MCP_HOST = `targets-${randomUUID().slice(0, 8)}.mcp.test`
const MCP_URL = `https://${MCP_HOST}/mcp`
const LOCKED_URL = 'https://auth-required.mcp.test/mcp'

let world: World
let browser: Browser
let base: string
let local: ReturnType<typeof Bun.serve>[] = []

beforeAll(async () => {
  if (!executablePath) return
  mkdirSync(SCREENSHOTS, { recursive: true })
  local = [
    Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: siteHandler('blog', '127.0.0.1') }),
    Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: siteHandler('poor', '127.0.0.1') }),
  ]
  // No browser for rendered checks: every scan completes at once, so a second scan of a target is a cache hit.
  world = await startWorld([], {
    browser: null,
    mcp: [
      { name: 'well-made', hosts: [MCP_HOST] },
      { name: 'auth-required', hosts: ['auth-required.mcp.test'] },
    ],
  })
  world.handle.app.listen({ port: 0, hostname: '127.0.0.1' })
  base = `http://127.0.0.1:${world.handle.app.server!.port}`
  browser = await puppeteer.launch({
    executablePath,
    headless: true,
    pipe: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  })
}, 60_000)

afterAll(async () => {
  if (!executablePath) return
  await browser?.close()
  await world?.handle.app.stop()
  await world?.close()
  await Promise.all(local.map((server) => server.stop(true)))
})

/** Each page is its own client address (TRUST_PROXY), so the scans of one test never spend another's budget. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 900 })
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientIp() })
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(String(error)))
  return { page, problems }
}

/** Types a target into the home form and follows the streamed scan to the page it opens. */
async function scanFromHome(page: Page, target: string): Promise<string> {
  await page.goto(`${base}/`, { waitUntil: 'domcontentloaded' })
  await page.type('#scan-target', target)
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'networkidle0', timeout: 45_000 }),
    page.click('form[data-scan-form] button[type="submit"]'),
  ])
  const url = new URL(page.url())
  return `${url.pathname}${url.search}`
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '')
const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: false })

describe.skipIf(!executablePath)('one report per target, in Chromium', () => {
  test('two local servers that differ only by port get two reports; localhost:PORT has one; none is on the leaderboard', async () => {
    const { page, problems } = await openPage()
    const [first, second] = local.map((server) => `127.0.0.1:${server.port}`)
    expect(await scanFromHome(page, first!)).toBe(`/site/${first}`)
    expect(await text(page, 'h1')).toBe(first!)
    const firstScore = await text(page, '.score-text')
    expect(await scanFromHome(page, second!)).toBe(`/site/${second}`)
    expect(await text(page, 'h1')).toBe(second!)
    expect(await text(page, '.score-text')).not.toBe(firstScore)
    expect(await text(page, '#ephemeral-notice')).toContain('Not published')
    await screenshot(page, 'report-local-port')
    const onLocalhost = `localhost:${local[1]!.port}`
    expect(await scanFromHome(page, onLocalhost)).toBe(`/site/${onLocalhost}`)
    expect(await text(page, 'h1')).toBe(onLocalhost)
    await page.goto(`${base}/leaderboard`, { waitUntil: 'domcontentloaded' })
    const ranking = await text(page, 'main')
    expect(ranking).not.toContain('127.0.0.1')
    expect(ranking).not.toContain('localhost')
    expect(problems).toEqual([])
    await page.close()
  }, 120_000)

  test('an MCP URL and then its bare host leave both reports, and "Scan again" on the MCP report rescans the MCP server', async () => {
    const { page, problems } = await openPage()
    const mcpPath = `/mcp/${encodeURIComponent(MCP_URL)}`
    expect(await scanFromHome(page, MCP_URL)).toBe(mcpPath)
    expect(await scanFromHome(page, MCP_HOST)).toBe(`/site/${MCP_HOST}`)
    expect(await page.$eval(`.siblings a[href="${mcpPath}"]`, (element) => element.textContent)).toBe(MCP_URL)
    await screenshot(page, 'report-site-with-mcp-sibling')
    await page.goto(`${base}${mcpPath}`, { waitUntil: 'networkidle0' })
    expect(await text(page, 'h1')).toBe(MCP_URL)
    const before = await world.handle.pieces.scans.latestOf(`mcp:${MCP_URL}`)
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'networkidle0', timeout: 45_000 }),
      page.click('#rescan-title ~ form[data-rescan] button'),
    ])
    expect(new URL(page.url()).pathname).toBe(mcpPath)
    expect(await text(page, 'h1')).toBe(MCP_URL)
    expect(await text(page, '#report-summary')).toContain('MCP server')
    // A new scan of the MCP server itself, not of the host as a website.
    const after = await world.handle.pieces.scans.latestOf(`mcp:${MCP_URL}`)
    expect(after!.id).toBeGreaterThan(before!.id)
    expect(after!.urlKind).toBe('mcp')
    await screenshot(page, 'report-mcp-rescanned')
    // Both reports are ranked, each on its own row (on whichever leaderboard pages other suites' results leave them).
    const links: (string | null)[] = []
    for (let number = 1; number <= 20 && !(links.includes(mcpPath) && links.includes(`/site/${MCP_HOST}`)); number++) {
      await page.goto(`${base}/leaderboard?page=${number}`, { waitUntil: 'domcontentloaded' })
      const onPage = await page.$$eval('.ranking a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')))
      if (onPage.length === 0) break
      links.push(...onPage)
    }
    expect(links).toContain(mcpPath)
    expect(links).toContain(`/site/${MCP_HOST}`)
    expect(problems).toEqual([])
    await page.close()
  }, 120_000)

  test('a result served from the cache says so and its age, and offers a fresh scan', async () => {
    const { page, problems } = await openPage()
    const first = `127.0.0.1:${local[0]!.port}`
    await scanFromHome(page, first)
    expect(await scanFromHome(page, first)).toBe(`/site/${first}?cached`)
    expect(await text(page, '#freshness')).toContain('From the cache')
    expect(await text(page, '#freshness time')).toMatch(/just now|minutes? ago/)
    expect(await text(page, '#freshness button')).toBe('Fresh scan')
    await screenshot(page, 'report-from-cache')
    // The fresh scan is one click, and the page it lands on no longer says "from the cache".
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'networkidle0', timeout: 45_000 }),
      page.click('#freshness button'),
    ])
    expect(new URL(page.url()).search).toBe('')
    expect(await text(page, '#freshness')).toContain('Scanned just now')
    expect(problems).toEqual([])
    await page.close()
  }, 120_000)

  test('a protected MCP server opens a page that names --header-env instead of a scan that never ends', async () => {
    const { page, problems } = await openPage()
    expect(await scanFromHome(page, LOCKED_URL)).toBe(`/mcp/${encodeURIComponent(LOCKED_URL)}`)
    expect(await text(page, 'h1')).toBe(`${LOCKED_URL} requires authentication`)
    expect(await text(page, '#auth-cli')).toContain('--header-env MCP_AUTH')
    expect(await text(page, '#auth-action')).toContain('args: --header-env MCP_AUTH')
    await page.screenshot({ path: join(SCREENSHOTS, 'mcp-auth-required.png'), fullPage: true })
    expect(await axeViolations(page)).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  test('axe finds nothing on an MCP report and on a local report served from the cache, every fold open', async () => {
    const { page, problems } = await openPage()
    for (const path of [`/site/127.0.0.1:${local[0]!.port}?cached`, `/mcp/${encodeURIComponent(MCP_URL)}`]) {
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle0' })
      expect({ path, violations: await axeViolations(page) }).toEqual({ path, violations: [] })
    }
    // The MCP server scores 100: its extras not met read "Not met", in no failure colour.
    expect(
      await page.$$eval('#extras .status', (labels) => [...new Set(labels.map((label) => label.textContent))]),
    ).toEqual(['Not met'])
    expect(
      await page.$$eval(
        '#extras .check-fail, #extras .check-warning, main .status-fail',
        (failures) => failures.length,
      ),
    ).toBe(0)
    await (await page.$('#extras'))!.screenshot({ path: join(SCREENSHOTS, 'report-mcp-extras.png') })
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)
})
