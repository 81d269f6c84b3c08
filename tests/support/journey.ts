import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { AppHandle } from '../../app/app.ts'
import { request } from '../helpers.ts'
import { clientIp } from './world.ts'

/** One named SSE frame. */
export interface NamedFrame {
  event: string
  data: Record<string, unknown>
}

/** Reads a `text/event-stream` body until the server closes it, as named frames (comments skipped). */
export async function readFrames(response: Response, timeoutMs = 60_000): Promise<NamedFrame[]> {
  const frames: NamedFrame[] = []
  const reader = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  const timer = setTimeout(() => void reader.cancel(), timeoutMs)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (value.event && value.data)
        frames.push({ event: value.event, data: JSON.parse(value.data) as Record<string, unknown> })
    }
  } finally {
    clearTimeout(timer)
  }
  return frames
}

export function createRun(handle: AppHandle, json: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handle.app.handle(
    request('/api/journey/runs', { method: 'POST', json, headers: { 'x-forwarded-for': clientIp(), ...headers } }),
  )
}

export function getPath(handle: AppHandle, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return handle.app.handle(request(path, { headers: { 'x-forwarded-for': clientIp(), ...headers } }))
}

/** Polls the run until it has ended (completed or failed). */
export async function untilEnded(handle: AppHandle, id: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const run = (await (await getPath(handle, `/api/journey/runs/${id}`)).json()) as Record<string, unknown>
    if (run.status === 'completed' || run.status === 'failed') return run
    if (Date.now() > deadline) throw new Error(`run ${id} still ${String(run.status)} after ${timeoutMs} ms`)
    await Bun.sleep(100)
  }
}

/** Whether every field of `part` is in `whole` with an equal value (arrays element by element). */
export function isDeepSubset(part: unknown, whole: unknown): boolean {
  if (Array.isArray(part))
    return (
      Array.isArray(whole) &&
      part.length === whole.length &&
      part.every((item, index) => isDeepSubset(item, whole[index]))
    )
  if (part !== null && typeof part === 'object') {
    if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) return false
    return Object.entries(part).every(
      ([key, value]) => key in whole && isDeepSubset(value, (whole as Record<string, unknown>)[key]),
    )
  }
  return Object.is(part, whole)
}
