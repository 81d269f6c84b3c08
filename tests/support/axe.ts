import type { Page } from 'puppeteer-core'

/** axe's findings on a page with every fold open, one line per rule: what a test expects to be empty. */
export async function axeViolations(page: Page): Promise<string[]> {
  const { AxePuppeteer } = await import('@axe-core/puppeteer')
  await page.$$eval('details', (folds) => folds.forEach((fold) => ((fold as HTMLDetailsElement).open = true)))
  const results = await new AxePuppeteer(page).analyze()
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
}
