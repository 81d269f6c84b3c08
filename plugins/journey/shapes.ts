import type { TrajectoryStep } from '../../journeys/types.ts'
import type { DomainAggregate, JourneyRunGraph, JourneyRunRecord } from './model.ts'
import type { JourneyRunRow } from './repository.ts'

export function streamUrl(publicBaseUrl: string, runId: string): string {
  return `${publicBaseUrl}/api/journey/runs/${runId}/stream`
}

/** The run record every route and the stream's `result` event share. */
export function runRecord(
  row: JourneyRunRow,
  steps: readonly TrajectoryStep[],
  publicBaseUrl: string,
): JourneyRunRecord {
  return {
    id: row.id,
    status: row.status,
    intent_id: row.intentId,
    domain: row.domain,
    agent: { id: row.agentId, harness: row.harness, model: row.model },
    identity: row.identity,
    compare: row.compareRunId && row.compareRole ? { run_id: row.compareRunId, role: row.compareRole } : null,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    stream_url: streamUrl(publicBaseUrl, row.id),
    verdict: row.verdict,
    // While a run is going the row's count is not kept up to date; the steps read are.
    step_count: Math.max(row.stepCount, steps.length),
    // The zod model is loose (navigation detail may grow); a TrajectoryStep is one of its values.
    steps: steps as JourneyRunRecord['steps'],
    // Records written before related checks and comparisons existed read as having none.
    insight: row.insight
      ? { ...row.insight, related_checks: row.insight.related_checks ?? [], comparison: row.comparison }
      : null,
    run_signals: row.runSignals,
    agent_response: row.agentResponse,
    usage: row.usage,
    content_digest: row.contentDigest,
    trajectory_digest: row.trajectoryDigest,
    error: row.error,
    contractVersion: row.contractVersion,
  }
}

type GraphStep = JourneyRunGraph['steps'][number]

export function graphStep(step: Pick<TrajectoryStep, keyof GraphStep>): GraphStep {
  const { id, turn, type, parent_id, action, tool, status, duration_ms, label } = step
  return { id, turn, type, parent_id, action, tool, status, duration_ms, label }
}

/** The graph projection: what a run did (the step tree) and how it ended, without what the site answered. */
export function runGraph(record: JourneyRunRecord): JourneyRunGraph {
  return {
    id: record.id,
    status: record.status,
    intent_id: record.intent_id,
    domain: record.domain,
    agent: record.agent,
    started_at: record.started_at,
    finished_at: record.finished_at,
    verdict: record.verdict,
    step_count: record.step_count,
    steps: record.steps.map(graphStep),
    insight: record.insight ? { summary: record.insight.summary } : null,
    contractVersion: record.contractVersion,
  }
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Success rates per (intent, agent) and the median step count, over completed runs only: a run still going has no outcome yet. */
export function aggregateRuns(rows: readonly JourneyRunRow[]): DomainAggregate {
  const completed = rows.filter((row) => row.status === 'completed')
  const pairs = new Map<string, DomainAggregate['success_rates'][number]>()
  for (const row of rows) {
    const key = JSON.stringify([row.intentId, row.agentId])
    const entry = pairs.get(key) ?? {
      intent_id: row.intentId,
      agent_id: row.agentId,
      runs: 0,
      completed: 0,
      successes: 0,
      success_rate: null,
    }
    entry.runs++
    if (row.status === 'completed') {
      entry.completed++
      if (row.verdict?.outcome === 'success') entry.successes++
      entry.success_rate = Math.round((entry.successes / entry.completed) * 1000) / 1000
    }
    pairs.set(key, entry)
  }
  return {
    runs: rows.length,
    completed: completed.length,
    median_steps: median(completed.map((row) => row.stepCount)),
    success_rates: [...pairs.values()],
  }
}
