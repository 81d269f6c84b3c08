import { describe, expect, test } from 'bun:test'
import type { BaselineReport } from '../app/cli/baseline.ts'
import { columns, wrap } from '../app/cli/formats/style.ts'
import { evaluateGate } from '../app/cli/gate.ts'
import type { CliCheck, CliReport } from '../app/cli/report.ts'
import { UsageError } from '../app/cli/usage.ts'

/** The gate's assertions and the baseline comparison over literal reports, and the text wrapper's width bound. */

const check = (id: string, status: string, extra: Partial<CliCheck> = {}): CliCheck => ({
  id,
  name: `Check ${id}`,
  status,
  score: status === 'pass' ? 5 : 0,
  maxScore: 5,
  maturity: 'verified',
  bonus: false,
  ...extra,
})

function report(score: number, checks: CliCheck[], contractVersion = '2.0.0'): CliReport {
  return {
    domain: 'site.test',
    name: 'site.test',
    url: 'https://site.test/',
    score,
    grade: 'B',
    partial: false,
    analysisStatus: 'complete',
    pendingChecks: [],
    scannedAt: '2026-11-20T00:00:00.000Z',
    durationMs: 5,
    layers: [{ id: 'discovery', name: 'Discovery', score: 0, maxScore: 0, checks }],
    topFixes: [],
    source: 'in-process',
    contractVersion,
  }
}

const asBaseline = (source: CliReport): BaselineReport => ({ ...source, score: source.score!, grade: source.grade! })

describe('evaluateGate', () => {
  test('no gate option: inactive, passing, and the last line says how to set one', () => {
    const gate = evaluateGate(report(80, [check('a', 'fail')]), {}, '')
    expect(gate).toMatchObject({ active: false, passed: true, assertions: [] })
    expect(gate.summary).toStartWith('No gate: ')
  })

  test('each --checks id is one assertion; a fan-out check passes only when every server passed', () => {
    const rows = [
      check('a', 'pass'),
      check('m', 'pass', { mcpUrl: 'https://one.test/mcp' }),
      check('m', 'warning', { mcpUrl: 'https://two.test/mcp', details: 'slow' }),
    ]
    const gate = evaluateGate(report(80, rows), { checks: ['a', 'm'], minScore: 80 }, '')
    expect(gate.assertions.map((entry) => [entry.name, entry.passed])).toEqual([
      ['min-score 80', true],
      ['check a', true],
      ['check m', false],
    ])
    expect(gate.assertions[2]!.detail).toBe('m (https://two.test/mcp): slow')
    expect(gate.summary).toBe('Gate failed: m did not pass (warning).')
    expect(() => evaluateGate(report(80, rows), { checks: ['nope'] }, '')).toThrow(UsageError)
  })

  test('baseline: keyed on id and MCP server; regressions, fixes, and a contract change listed apart', () => {
    const before = report(
      90,
      [
        check('kept', 'pass'),
        check('broke', 'pass', { recommendation: 'Fix it' }),
        check('m', 'pass', { mcpUrl: 'https://a.test/mcp' }),
        check('retired', 'pass'),
        check('better', 'fail'),
      ],
      '1.0.0',
    )
    const after = report(85, [
      check('kept', 'pass'),
      check('broke', 'error', { details: 'timed out' }),
      check('m', 'pass', { mcpUrl: 'https://b.test/mcp' }),
      check('better', 'pass'),
      check('new-one', 'fail'),
    ])
    const gate = evaluateGate(after, { baseline: { report: asBaseline(before), file: 'b.json', tolerance: 5 } }, '')
    const comparison = gate.baseline!
    expect(comparison.regressions).toEqual([
      {
        id: 'broke',
        name: 'Check broke',
        before: 'pass',
        after: 'error',
        details: 'timed out',
        recommendation: 'Fix it',
      },
      // That MCP server is gone from this run while the check still runs on another: it did not pass there.
      { id: 'm', mcpUrl: 'https://a.test/mcp', name: 'Check m', before: 'pass', after: 'not run' },
    ])
    expect(comparison.fixed).toEqual(['better'])
    expect(comparison.contract).toEqual({
      before: '1.0.0',
      after: '2.0.0',
      changed: true,
      added: ['new-one'],
      removed: ['retired'],
    })
    // Within the tolerance the score holds; the regressions still fail the gate, each a case of its own.
    expect(gate.assertions.map((entry) => [entry.name, entry.passed])).toEqual([
      ['baseline score', true],
      ['regression broke', false],
      ['regression m (https://a.test/mcp)', false],
    ])
    expect(gate.summary).toBe('Gate failed: 2 checks no longer pass (broke, m (https://a.test/mcp)).')
  })

  test('baseline: a drop beyond the tolerance fails; an unchanged run says "no regression"', () => {
    const before = report(90, [check('a', 'pass')])
    const dropped = evaluateGate(
      report(89, [check('a', 'pass')]),
      { baseline: { report: asBaseline(before), file: 'b.json', tolerance: 0 } },
      '',
    )
    expect(dropped.passed).toBe(false)
    expect(dropped.summary).toBe('Gate failed: score fell 1 point since the baseline (90 → 89, --tolerance 0).')
    const same = evaluateGate(
      report(90, [check('a', 'pass')]),
      { baseline: { report: asBaseline(before), file: 'b.json', tolerance: 0 } },
      '',
    )
    expect(same.baseline!.contract.changed).toBe(false)
    expect(same.summary).toBe(
      'Gate passed: score 90 as in the baseline; no regression: every check that passed in the baseline passes.',
    )
  })
})

describe('wrap', () => {
  test('every line fits the width, a word longer than a line is cut, and maxLines ends with an ellipsis', () => {
    const text = `Start ${'x'.repeat(150)} then\u0007 some words that go on and on and on until the line is full`
    const lines = wrap(text, { first: '  +10.7  llms-txt  ', indent: '        ', width: 60 })
    for (const line of lines) expect(columns(line)).toBeLessThanOrEqual(60)
    expect(lines.join('')).not.toContain('\u0007')
    expect(lines.slice(1).every((line) => line.startsWith('        '))).toBe(true)
    const cut = wrap(text, { first: '', indent: '', width: 60, maxLines: 2 })
    expect(cut).toHaveLength(2)
    expect(cut[1]).toEndWith('…')
    expect(columns(cut[1]!)).toBeLessThanOrEqual(60)
    // Colour codes take no columns.
    expect(columns('\x1b[31mFAIL\x1b[0m')).toBe(4)
  })
})
