import { describe, expect, test } from 'bun:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { renderJunit } from '../app/cli/formats/junit.ts'
import { renderMarkdown } from '../app/cli/formats/markdown.ts'
import type { CliReport } from '../app/cli/report.ts'
import { evaluateGate } from '../app/cli/gate.ts'

/** Details and names come from scanned sites: markup, quotes, control characters and lone surrogates included. */
const HOSTILE = `</failure></testcase><script>alert("x")</script> & 'quoted' | pipe\n[link](javascript:x) \u0001\u0008 \ud800 ]]>`

const report: CliReport = {
  domain: 'hostile.test',
  name: '<b>Hostile</b>',
  url: 'https://hostile.test/?a=1&b=2',
  score: 42,
  grade: 'C',
  partial: false,
  analysisStatus: 'complete',
  pendingChecks: [],
  scannedAt: '2026-11-25T00:00:00.000Z',
  durationMs: 10,
  layers: [
    {
      id: 'discovery',
      name: 'Discovery',
      score: 5,
      maxScore: 10,
      checks: [
        {
          id: 'llms-txt',
          name: 'llms.txt',
          status: 'fail',
          score: 0,
          maxScore: 5,
          details: HOSTILE,
          recommendation: HOSTILE,
        },
        { id: 'robots-txt', name: 'robots.txt', status: 'pass', score: 5, maxScore: 5, details: HOSTILE },
        {
          id: 'mcp-initialize',
          name: 'initialize',
          status: 'na',
          score: 0,
          maxScore: 5,
          naReason: HOSTILE,
          mcpUrl: 'https://hostile.test/mcp?x="1"',
        },
      ],
    },
  ],
  topFixes: [],
  source: 'in-process',
}

describe('formats escape what a scanned site wrote', () => {
  test('junit stays valid XML and carries the text back unchanged (minus what XML cannot hold)', () => {
    const xml = renderJunit(report, { gate: evaluateGate(report, {}, ''), color: false })
    expect(XMLValidator.validate(xml)).toBe(true)
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testcase',
    }).parse(xml)
    const cases = parsed.testsuites.testsuite.testcase
    expect(cases).toHaveLength(3)
    expect(cases[0].failure['#text']).toContain('<script>alert("x")</script>')
    expect(cases[2].name).toBe('mcp-initialize (https://hostile.test/mcp?x="1")')
    expect(cases[2].skipped.message).toContain("'quoted'")
    expect(xml).not.toContain('\u0001')
  })

  test('markdown keeps every check on one table row with markup inert', () => {
    const md = renderMarkdown(report, { gate: evaluateGate(report, {}, ''), color: false })
    const row = md.split('\n').find((line) => line.includes('`llms-txt`'))!
    expect(row).toContain('\\<script\\>')
    expect(row).toContain('\\| pipe')
    expect(row).not.toContain('\n')
    expect(md).not.toMatch(/[^\\]<script>/)
  })
})
