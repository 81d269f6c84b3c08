/** Comment frames keep proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 15_000

export interface SseChannel {
  /** Sends one frame; `event` names it (journeys), otherwise the payload's own `type` field identifies it. */
  send(data: unknown, event?: string): void
  close(): void
  /** Aborted when the client disconnects or the stream is closed. */
  readonly signal: AbortSignal
}

/**
 * A `text/event-stream` response driven by `run`. The stream closes when `run` settles; a client disconnect
 * aborts `signal` so `run` can stop early. Frames carry increasing ids.
 */
export function sseResponse(
  request: Request,
  headers: Record<string, string>,
  run: (channel: SseChannel) => Promise<void>,
): Response {
  const controller = new AbortController()
  request.signal.addEventListener('abort', () => controller.abort(), { once: true })
  const encoder = new TextEncoder()
  let nextId = 0
  const stream = new ReadableStream<Uint8Array>({
    start(sink) {
      let closed = false
      const write = (text: string) => {
        if (closed) return
        try {
          sink.enqueue(encoder.encode(text))
        } catch {
          closed = true
          controller.abort()
        }
      }
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS)
      const channel: SseChannel = {
        send(data, event) {
          const lines = JSON.stringify(data)
            .split('\n')
            .map((line) => `data: ${line}`)
            .join('\n')
          write(`id: ${++nextId}\n${event ? `event: ${event}\n` : ''}${lines}\n\n`)
        },
        close() {
          if (closed) return
          closed = true
          clearInterval(heartbeat)
          controller.abort()
          try {
            sink.close()
          } catch {
            // Already closed by the client.
          }
        },
        signal: controller.signal,
      }
      write(': stream open\n\n')
      void run(channel).finally(() => channel.close())
    },
    cancel() {
      controller.abort()
    },
  })
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    },
  })
}
