import { describe, expect, test } from 'bun:test'
import { ParseLimitError } from './bounded.ts'
import { MAX_JSON_DEPTH } from './nesting.ts'
import { guardJsonResponse, jsonStreamGuard } from './stream.ts'

const encoder = new TextEncoder()

/** Pipes `parts` (each a chunk) through the guard and reads it all: the text, or the error the stream ended with. */
async function through(
  parts: string[],
  sse: boolean,
  limits?: Parameters<typeof jsonStreamGuard>[1],
): Promise<string | Error> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part))
      controller.close()
    },
  })
  try {
    return await new Response(source.pipeThrough(jsonStreamGuard(sse, limits))).text()
  } catch (error) {
    return error as Error
  }
}

describe('jsonStreamGuard', () => {
  test('JSON within the bound passes through byte for byte, whatever the chunking', async () => {
    const text = JSON.stringify({ a: [1, { b: '}}}]]]"\\' }], c: '€ ünïcode' })
    expect(await through([text.slice(0, 7), text.slice(7, 8), text.slice(8)], false)).toBe(text)
  })

  test('nesting past the bound errors the stream, even split across chunks', async () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1)
    const result = await through([deep.slice(0, 10), deep.slice(10)], false)
    expect(result).toBeInstanceOf(ParseLimitError)
    expect((result as ParseLimitError).limit).toBe('depth')
  })

  test('brackets inside strings (escaped quotes included) do not count', async () => {
    expect(await through([`{"a":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`], false, { maxDepth: 2 })).toBeString()
  })

  test('SSE: each event is judged on its own, and nesting restarts after a blank line (LF or CRLF)', async () => {
    const event = `data: ${'['.repeat(40)}${']'.repeat(40)}\n\n`
    expect(
      await through([event.repeat(10), event.replaceAll('\n', '\r\n').repeat(10)], true, { maxDepth: 40 }),
    ).toBeString()
    expect(await through([`data: ${'['.repeat(41)}\n\n`], true, { maxDepth: 40 })).toBeInstanceOf(ParseLimitError)
  })

  test('SSE: an unbalanced event does not carry its depth into the next', async () => {
    const open = `data: ${'['.repeat(30)}\n\n`
    expect(await through([open, open, open], true, { maxDepth: 40 })).toBeString()
  })

  test('SSE: a stray quote cannot hide the nesting of the lines after it', async () => {
    expect(await through([`id: "x\ndata: ${'['.repeat(41)}\n\n`], true, { maxDepth: 40 })).toBeInstanceOf(
      ParseLimitError,
    )
  })

  test('SSE: an event past the size bound errors the stream; many small events do not', async () => {
    const small = `data: ${JSON.stringify({ x: 'y'.repeat(100) })}\n\n`
    expect(await through([small.repeat(100)], true, { maxEventBytes: 200 })).toBeString()
    const result = await through(['data: {"x":"', 'y'.repeat(150), 'y'.repeat(150)], true, { maxEventBytes: 200 })
    expect((result as ParseLimitError).limit).toBe('size')
  })
})

describe('guardJsonResponse', () => {
  test('guards JSON and event streams, keeps status, headers and url; leaves other types alone', async () => {
    const response = new Response('['.repeat(MAX_JSON_DEPTH + 1), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    Object.defineProperty(response, 'url', { value: 'https://example.test/mcp' })
    const guarded = guardJsonResponse(response)
    expect(guarded.url).toBe('https://example.test/mcp')
    expect(guarded.headers.get('content-type')).toBe('application/json; charset=utf-8')
    await expect(guarded.json()).rejects.toBeInstanceOf(ParseLimitError)

    const html = new Response('['.repeat(100), { headers: { 'content-type': 'text/html' } })
    expect(guardJsonResponse(html)).toBe(html)
  })
})
