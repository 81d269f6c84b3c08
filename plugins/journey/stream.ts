import type { Store } from '../../core/store/types.ts'
import type { SseChannel } from '../../core/sse.ts'
import type { TrajectoryStep } from '../../journeys/types.ts'
import type { JourneyRepository, JourneyRunRow } from './repository.ts'
import { graphStep, runGraph, runRecord } from './shapes.ts'
import { journeyChannel, type JourneyEvent } from './worker.ts'

/**
 * How often an open stream re-reads a run it has heard nothing about: pub/sub is fire and forget, so a message
 * lost to a store outage (or published by a worker on another store) must not leave the stream open forever.
 */
const POLL_MS = 3_000

export interface RelayDeps {
  repository: JourneyRepository
  store: Store
  publicBaseUrl: string
}

const ended = (row: JourneyRunRow) => row.status === 'completed' || row.status === 'failed'

/**
 * Relays a run as SSE: `run_id`, one `trajectory` per step (stored history first, then live), `processing` once
 * the agent is done, then `result` (the run record) or `error`. The channel is subscribed to before the history
 * is read, so no step falls between the two; steps are de-duplicated by seq. `graph` narrows steps and the
 * result to the graph projection.
 */
export async function relayRun(deps: RelayDeps, runId: string, graph: boolean, channel: SseChannel): Promise<void> {
  const inbox: JourneyEvent[] = []
  let wake: (() => void) | null = null
  const unsubscribe = await deps.store
    .subscribe(journeyChannel(runId), (message) => {
      inbox.push(JSON.parse(message) as JourneyEvent)
      wake?.()
    })
    // Without pub/sub the stream still follows the run by polling it.
    .catch(() => null)
  const steps: TrajectoryStep[] = []
  let lastSeq = -1
  const sendStep = (seq: number, step: TrajectoryStep) => {
    steps.push(step)
    lastSeq = seq
    channel.send({ run_id: runId, seq, step: graph ? graphStep(step) : step }, 'trajectory')
  }
  const catchUp = async () => {
    for (const stored of await deps.repository.steps(runId, lastSeq)) sendStep(stored.seq, stored.step)
  }
  const finish = async (row: JourneyRunRow) => {
    await catchUp()
    if (row.status === 'failed') {
      channel.send(
        { run_id: runId, code: row.error?.code ?? 'RUN_FAILED', message: row.error?.message ?? 'The journey failed.' },
        'error',
      )
      return
    }
    const record = runRecord(row, steps, deps.publicBaseUrl)
    channel.send(graph ? runGraph(record) : record, 'result')
  }
  const nextEvent = () =>
    new Promise<JourneyEvent | null>((resolve) => {
      const timer = setTimeout(() => done(null), POLL_MS)
      const done = (event: JourneyEvent | null) => {
        clearTimeout(timer)
        wake = null
        channel.signal.removeEventListener('abort', onAbort)
        resolve(event)
      }
      const onAbort = () => done(null)
      channel.signal.addEventListener('abort', onAbort, { once: true })
      if (inbox.length > 0) return done(inbox.shift()!)
      wake = () => done(inbox.shift() ?? null)
    })

  try {
    channel.send({ run_id: runId }, 'run_id')
    let processing = false
    for (;;) {
      const row = await deps.repository.byId(runId)
      if (!row) return
      if (ended(row)) return await finish(row)
      await catchUp()
      // Events until the next poll, or until the run ends.
      for (let event = await nextEvent(); event; event = await nextEvent()) {
        if (event.type === 'step') {
          if (event.seq <= lastSeq) continue
          // A gap means a message was lost: the stored steps fill it.
          if (event.seq > lastSeq + 1) await catchUp()
          if (event.seq > lastSeq) sendStep(event.seq, event.step)
        } else if (event.type === 'processing') {
          if (!processing) channel.send({ run_id: runId, step_count: event.step_count }, 'processing')
          processing = true
        } else {
          const final = await deps.repository.byId(runId)
          if (final && ended(final)) return await finish(final)
        }
      }
      if (channel.signal.aborted) return
    }
  } catch {
    // The database went away mid-stream; the run itself goes on, and GET /api/journey/runs/{id} tells how it ends.
    channel.send(
      {
        run_id: runId,
        code: 'STREAM_FAILED',
        message: 'The stream failed; read the run with GET /api/journey/runs/{id}.',
      },
      'error',
    )
  } finally {
    await unsubscribe?.()
  }
}
