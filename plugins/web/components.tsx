import { CATEGORIES } from '../../core/engine/lib/categories.ts'
import { GRADE_COLORS, type Grade } from '../../core/engine/scoring.ts'

const STATUS_LABELS: Record<string, string> = {
  pass: 'Pass',
  fail: 'Fail',
  warning: 'Warning',
  error: 'Error',
  pending: 'Pending',
  na: 'Not applicable',
}

/**
 * A status as words as well as colour, so it reads without colour vision and in a screen reader. An extra (a
 * check that can never lower the score) that is not met reads "Not met" in a neutral colour, not as a failure.
 */
export function StatusLabel({ status, extra = false }: { status: string; extra?: boolean }): JSX.Element {
  if (extra && (status === 'fail' || status === 'warning')) {
    return (
      <span class="status status-extra" safe>
        Not met
      </span>
    )
  }
  const known = status in STATUS_LABELS
  return (
    <span class={`status status-${known ? status : 'error'}`} safe>
      {STATUS_LABELS[status] ?? status}
    </span>
  )
}

const GAUGE_RADIUS = 54
const GAUGE_CIRCUMFERENCE = 2 * Math.PI * GAUGE_RADIUS

/** The score as a ring filled in the grade's colour, drawn with SVG attributes (the CSP allows no inline style). */
export function Gauge({ score, grade }: { score: number; grade: string }): JSX.Element {
  const filled = (Math.max(0, Math.min(100, score)) / 100) * GAUGE_CIRCUMFERENCE
  const color = GRADE_COLORS[grade as Grade] ?? '#6b7280'
  return (
    <svg
      class="gauge"
      viewBox="0 0 128 128"
      width="128"
      height="128"
      role="img"
      aria-label={`Score ${score} out of 100, grade ${grade}`}
    >
      <circle cx="64" cy="64" r={String(GAUGE_RADIUS)} fill="none" stroke="#e5e7eb" stroke-width="12" />
      <circle
        cx="64"
        cy="64"
        r={String(GAUGE_RADIUS)}
        fill="none"
        stroke={color}
        stroke-width="12"
        stroke-linecap="round"
        stroke-dasharray={`${filled.toFixed(1)} ${GAUGE_CIRCUMFERENCE.toFixed(1)}`}
        transform="rotate(-90 64 64)"
      />
      <text x="64" y="62" text-anchor="middle" font-size="34" font-weight="700" fill="#111827">
        {String(score)}
      </text>
      <text x="64" y="88" text-anchor="middle" font-size="14" fill="#374151">
        out of 100
      </text>
    </svg>
  )
}

const SPARK_WIDTH = 240
const SPARK_HEIGHT = 48

/** Scores over time, oldest first, as a server-rendered polyline on a 0-100 scale. */
export function Sparkline({ points }: { points: { score: number; scannedAt: Date }[] }): JSX.Element {
  if (points.length < 2) return <p class="muted">One scan so far; the history appears after the next one.</p>
  const step = SPARK_WIDTH / (points.length - 1)
  const y = (score: number) => (SPARK_HEIGHT - 4 - (score / 100) * (SPARK_HEIGHT - 8)).toFixed(1)
  const line = points.map((point, index) => `${(index * step).toFixed(1)},${y(point.score)}`).join(' ')
  const first = points[0]!
  const last = points[points.length - 1]!
  const label = `Score history over ${points.length} scans: from ${first.score} on ${day(first.scannedAt)} to ${last.score} on ${day(last.scannedAt)}`
  return (
    <svg
      class="sparkline"
      viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
      width={String(SPARK_WIDTH)}
      height={String(SPARK_HEIGHT)}
      role="img"
      aria-label={label}
    >
      <polyline points={line} fill="none" stroke="#1d4ed8" stroke-width="2" />
      <circle cx={String(SPARK_WIDTH)} cy={y(last.score)} r="3" fill="#1d4ed8" />
    </svg>
  )
}

export const day = (date: Date) => date.toISOString().slice(0, 10)

const AGE_UNITS: [seconds: number, name: string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
]

/** How long ago, in words a person reads at a glance: "just now", "9 minutes ago", "1 day ago". */
export function ago(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000))
  const unit = AGE_UNITS.find(([size]) => seconds >= size)
  if (!unit) return 'just now'
  const count = Math.floor(seconds / unit[0])
  return `${count} ${unit[1]}${count === 1 ? '' : 's'} ago`
}

/** Only web links become anchors: a javascript: or data: URL in a stored result must never be clickable. */
export function isWebUrl(value: string | undefined): value is string {
  if (!value) return false
  try {
    const { protocol } = new URL(value)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * A copy-ready code block: the label names what it is, the button (wired by app.js) copies the code exactly.
 * The block scrolls rather than wraps so that copied lines stay what they look like.
 */
export function CodeBlock({ id, label, code }: { id: string; label: string; code: string }): JSX.Element {
  return (
    <figure class="code">
      <figcaption>
        <span id={`${id}-label`} safe>
          {label}
        </span>
        <button type="button" class="copy secondary" data-copy-target={id} aria-describedby={`${id}-label`}>
          Copy
        </button>
      </figcaption>
      <pre tabindex="0" role="group" aria-labelledby={`${id}-label`}>
        <code id={id} safe>
          {code}
        </code>
      </pre>
    </figure>
  )
}

/** A scan kind, in the singular, as a label. */
export const KIND_NAMES: Record<string, string> = { domain: 'Website', mcp: 'MCP server', 'mcp-app': 'MCP App' }

const CATEGORY_NAMES: Record<string, string> = Object.fromEntries(
  CATEGORIES.map((category) => [category.slug, category.name]),
)

/** A market category as people name it ("E-commerce & Retail"), never its slug. */
export const categoryName = (slug: string | null): string =>
  slug === null ? 'Uncategorised' : (CATEGORY_NAMES[slug] ?? slug)
