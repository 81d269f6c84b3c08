/** What the progress display reads from a scan's events (in-process ScanEvent or the stream's frames alike). */
export interface ProgressEvent {
  type: string
}

/** A field of an event as text; the display needs nothing typed. */
function field(event: ProgressEvent, name: string): string {
  return String((event as unknown as Record<string, unknown>)[name])
}

export interface Progress {
  event(event: ProgressEvent): void
  note(line: string): void
  /** Clears a live display before the report is printed. */
  done(): void
}

interface Writer {
  write(text: string): unknown
  isTTY?: boolean
  /** The terminal's width, as a TTY stream has it. */
  columns?: number
}

export function createProgress(mode: 'auto' | 'quiet', out: Writer = process.stderr): Progress {
  if (mode === 'quiet') return { event() {}, note() {}, done() {} }
  return out.isTTY ? new LiveProgress(out) : new PlainProgress(out)
}

/** For logs: one line per finished check and per phase, nothing redrawn. */
class PlainProgress implements Progress {
  constructor(private readonly out: Writer) {}

  event(event: ProgressEvent): void {
    if (event.type === 'kind_detected') this.out.write(`scanning as ${field(event, 'kind')}\n`)
    if (event.type === 'check_complete')
      this.out.write(`  ${field(event, 'status').padEnd(7)} ${field(event, 'checkId')}\n`)
    if (event.type === 'layer_complete') this.out.write(`done: ${field(event, 'layerName')}\n`)
  }

  note(line: string): void {
    this.out.write(`${line}\n`)
  }

  done(): void {}
}

/**
 * For a terminal: checks done/total per layer, redrawn in place, and erased for good by done(). A frame is erased by
 * moving up the rows it took, so no line of it may wrap (a long target or server URL would take two rows and leave
 * the top one behind): each line is cut to the terminal's width. Nothing is drawn after done(), so that no late
 * event draws a frame over the report that follows.
 */
class LiveProgress implements Progress {
  private readonly layers = new Map<string, { name: string; total: number; done: number }>()
  private status = 'connecting'
  private drawn = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private finished = false

  constructor(private readonly out: Writer) {}

  event(event: ProgressEvent): void {
    if (this.finished) return
    if (event.type === 'kind_detecting') this.status = 'detecting the kind of target'
    if (event.type === 'kind_detected') this.status = `scanning as ${field(event, 'kind')}`
    if (event.type === 'check_start' || event.type === 'check_complete') {
      const id = field(event, 'layerId')
      const layer = this.layers.get(id) ?? { name: field(event, 'layerName'), total: 0, done: 0 }
      if (event.type === 'check_start') layer.total++
      else layer.done++
      this.layers.set(id, layer)
    }
    this.schedule()
  }

  note(line: string): void {
    if (this.finished) return
    this.status = line
    this.schedule()
  }

  done(): void {
    this.finished = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.clear()
  }

  /** At most one redraw per 50 ms: a scan completes dozens of checks within a few milliseconds. */
  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null
      this.draw()
    }, 50)
  }

  private clear(): void {
    // Up to the first line drawn, then erase to the end of the screen.
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}F\x1b[J`)
    this.drawn = 0
  }

  private draw(): void {
    const all = [...this.layers.values()]
    const done = all.reduce((sum, layer) => sum + layer.done, 0)
    const total = all.reduce((sum, layer) => sum + layer.total, 0)
    const lines = [`${this.status}${total > 0 ? `  ${done}/${total} checks` : ''}`]
    for (const layer of all) {
      const mark = layer.done === layer.total ? '✓' : ' '
      lines.push(`  ${mark} ${layer.name.padEnd(24)} ${layer.done}/${layer.total}`)
    }
    const width = Math.max(20, (this.out.columns || 80) - 1)
    this.clear()
    this.out.write(
      `${lines.map((line) => ([...line].length > width ? `${[...line].slice(0, width - 1).join('')}…` : line)).join('\n')}\n`,
    )
    this.drawn = lines.length
  }
}
