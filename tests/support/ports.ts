/** A loopback port the system just handed out and nothing listens on any more: free to bind, refused to connect. */
export function freeLoopbackPort(): number {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('Not found', { status: 404 }) })
  // Read before stopping: a stopped server no longer reports its port.
  const port = server.port!
  server.stop(true)
  return port
}

/** An origin on 127.0.0.1 where nothing listens: every connection to it is refused. */
export function closedOrigin(): string {
  return `http://127.0.0.1:${freeLoopbackPort()}`
}
