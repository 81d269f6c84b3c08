import { expect, test } from 'bun:test'
import { createProgress } from './progress.ts'

/** A terminal of `columns` columns that keeps what was written to it. */
function terminal(columns: number) {
  const written: string[] = []
  return { written, out: { isTTY: true, columns, write: (text: string) => written.push(text) } }
}

const events = [
  { type: 'kind_detected', kind: 'mcp' },
  { type: 'check_start', layerId: 'discovery', layerName: 'Discovery' },
  { type: 'check_complete', layerId: 'discovery', layerName: 'Discovery', status: 'pass', checkId: 'llms-txt' },
]

/** Lets the display's next redraw (at most one per 50 ms) happen. */
const redraw = () => Bun.sleep(80)

test('each line of a live frame fits the terminal, so erasing the rows it drew erases all of it', async () => {
  const { written, out } = terminal(40)
  const progress = createProgress('auto', out)
  for (const event of events) progress.event(event)
  progress.note(`rendering 2 checks of https://a-very-long-host-name.example.com/mcp/endpoint in a browser`)
  await redraw()
  const frame = written.at(-1)!
  const rows = frame.split('\n').slice(0, -1)
  for (const row of rows) expect([...row].length).toBeLessThan(40)
  progress.done()
  expect(written.at(-1)).toBe(`\x1b[${rows.length}F\x1b[J`)
})

test('after done() nothing is drawn: a late event cannot leave a frame above the report', async () => {
  const { written, out } = terminal(80)
  const progress = createProgress('auto', out)
  for (const event of events) progress.event(event)
  await redraw()
  progress.done()
  const erased = written.length
  progress.event(events[2]!)
  progress.note('late')
  await redraw()
  expect(written.length).toBe(erased)
})

test('off a terminal, one plain line per finished check and nothing to erase', () => {
  const written: string[] = []
  const progress = createProgress('auto', { write: (text: string) => written.push(text) })
  for (const event of events) progress.event(event)
  progress.done()
  expect(written.join('')).toBe('scanning as mcp\n  pass    llms-txt\n')
})
