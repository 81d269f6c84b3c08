import { describe, expect, test } from 'bun:test'
import type { z } from 'zod'
import type { auditScoreResult } from '../scan/public.ts'
import { ONE_LINE, scoreSummary } from './model.ts'
import { oneLine, summarize } from './summary.ts'

type Report = z.output<typeof auditScoreResult>
type Check = Report['layers'][number]['checks'][number]
type Fix = Report['topFixes'][number]

const check = (id: string, status: Check['status'], extra: Partial<Check> = {}): Check => ({
  id,
  name: `${id} name`,
  status,
  score: 0,
  maxScore: 5,
  ...extra,
})
const fix = (id: string, gain: number, extra: Partial<Fix> = {}): Fix => ({
  id,
  name: `${id} name`,
  layer: 'discovery',
  status: 'fail',
  estScoreGain: gain,
  bonus: false,
  tier: 'recommended',
  recommendation: `Fix ${id}.`,
  ...extra,
})

/** A stuck MCP bundle result: two servers fail the same check, one is still pending. */
function bundleReport(): Report {
  return {
    domain: 'bundle.test',
    name: 'Bundle',
    score: 41,
    scoreMax: 100,
    grade: 'D',
    gradeColor: '#f00',
    layers: [
      {
        id: 'usability',
        name: 'Usability',
        score: 10,
        maxScore: 40,
        checks: [
          check('mcp-tool-descriptions', 'fail', {
            mcpUrl: 'https://bundle.test/a/mcp',
            details: 'first line\nsecond line',
          }),
          check('mcp-tool-descriptions', 'fail', { mcpUrl: 'https://bundle.test/b/mcp', details: 'x'.repeat(400) }),
          check('mcp-ping', 'pass'),
          check('mcp-server-card', 'warning', { details: 'partly' }),
          check('mcp-apps-extension', 'fail', { bonus: true }),
          check('mcp-apps-extension', 'error', { bonus: true, mcpUrl: 'https://bundle.test/b/mcp' }),
          check('mcp-tool-annotations', 'pending'),
          check('mcp-pagination', 'na'),
        ],
      },
    ] as Report['layers'],
    topFixes: [
      fix('a', 9),
      fix('b', 5, { mcpUrl: 'https://bundle.test/b/mcp' }),
      fix('c', 4),
      fix('d', 3),
      fix('e', 2),
      fix('f', 1),
      fix('zero', 0),
    ],
    url: 'http://localhost:3000/site/bundle.test',
    generatedAt: '2026-11-28T00:00:00.000Z',
    source: 'localhost:3000',
    contractVersion: '1.0.0',
    analysisStatus: 'stuck',
    pendingChecks: ['mcp-tool-annotations'],
    urlKind: 'mcp',
    nextAction: {
      method: 'POST',
      endpoint: '/api/scan',
      body: { url: 'https://bundle.test/a/mcp' },
      description: 'Rescan',
    },
    scannedAt: '2026-11-28T00:00:00.000Z',
    durationMs: 10,
  } as Report
}

describe('the score summary', () => {
  test('one line of at most ONE_LINE characters', () => {
    expect(oneLine('  first line \nsecond line')).toBe('first line')
    expect(oneLine('y'.repeat(500))).toHaveLength(ONE_LINE)
    expect(oneLine('y'.repeat(500)).endsWith('…')).toBe(true)
    expect(oneLine('short')).toBe('short')
  })

  test('keeps what an agent acts on, names bundle servers, and carries the recovery pointer of a stuck result', () => {
    const summary = scoreSummary.parse(summarize(bundleReport()))
    expect(summary).toEqual({
      contractVersion: '1.0.0',
      domain: 'bundle.test',
      urlKind: 'mcp',
      score: 41,
      grade: 'D',
      analysisStatus: 'stuck',
      scannedAt: '2026-11-28T00:00:00.000Z',
      pendingChecks: ['mcp-tool-annotations'],
      topFixes: [
        { id: 'a', gain: 9, fix: 'Fix a.' },
        { id: 'b', gain: 5, fix: 'Fix b.', mcpUrl: 'https://bundle.test/b/mcp' },
        { id: 'c', gain: 4, fix: 'Fix c.' },
        { id: 'd', gain: 3, fix: 'Fix d.' },
        { id: 'e', gain: 2, fix: 'Fix e.' },
      ],
      failing: [
        { id: 'mcp-tool-descriptions', status: 'fail', details: 'first line', mcpUrl: 'https://bundle.test/a/mcp' },
        {
          id: 'mcp-tool-descriptions',
          status: 'fail',
          details: `${'x'.repeat(ONE_LINE - 1)}…`,
          mcpUrl: 'https://bundle.test/b/mcp',
        },
        { id: 'mcp-server-card', status: 'warning', details: 'partly' },
      ],
      bonusNotMet: ['mcp-apps-extension'],
      reportUrl: 'http://localhost:3000/site/bundle.test',
      nextAction: {
        method: 'POST',
        endpoint: '/api/scan',
        body: { url: 'https://bundle.test/a/mcp' },
        description: 'Rescan',
      },
    })
  })

  test('a complete result without fixes names no pending checks and no recovery pointer', () => {
    const report = {
      ...bundleReport(),
      analysisStatus: 'complete' as const,
      pendingChecks: [],
      nextAction: undefined,
      topFixes: [fix('zero', 0)],
    }
    const summary = summarize(report)
    expect(summary.topFixes).toEqual([])
    expect('pendingChecks' in summary).toBe(false)
    expect('nextAction' in summary).toBe(false)
  })
})
