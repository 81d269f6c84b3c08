import type { JourneyRunRecord } from '../../journey/public.ts'
import { day } from '../components.tsx'
import { Layout } from '../layout.tsx'
import { reportPath } from '../../scan/public.ts'

export const journeyPath = (id: string) => `/journeys/${encodeURIComponent(id)}`

export interface RecentRun {
  id: string
  title: string
  domain: string
  status: string
  outcome: string | undefined
  createdAt: Date
}

/** An intent's prompt with its `{domain}` placeholders as slots app.js fills with the domain being typed. */
function Prompt({ prompt }: { prompt: string }): JSX.Element {
  const parts = prompt.split('{domain}')
  return (
    <>
      {parts.map((part, index) => (
        <>
          <span safe>{part}</span>
          {index < parts.length - 1 ? <em data-domain-slot>example.com</em> : ''}
        </>
      ))}
    </>
  )
}

/** A public agent as the form offers it (GET /api/journey/agents). */
export interface OfferedAgent {
  id: string
  label: string
  identity: string
}

/** Who a run presented itself as, in words. */
function identityText(identity: string): string {
  if (identity === 'self') return 'our own agent (AgentReadiness)'
  if (identity === 'browser') return 'a plain browser (compare baseline)'
  return `${identity}, the user-triggered fetcher of an AI assistant`
}

/**
 * A verdict's outcome as a reader names it: a run stopped by the site ("blocked") is a different finding from a
 * task the site does not offer ("not found"), and the page must never present the first as the second.
 */
const OUTCOME_WORDS: Record<string, string> = { success: 'Done', blocked: 'Blocked', failure: 'Not found' }

/** `/journeys`: the curated intents, the form that starts one against a domain, and the newest public runs. */
export function JourneysPage({
  intents,
  agents,
  recent,
  baseUrl,
  nonce,
}: {
  intents: { id: string; title: string; prompt: string }[]
  agents: OfferedAgent[]
  recent: RecentRun[]
  baseUrl: string
  nonce: string
}): JSX.Element {
  return (
    <Layout
      meta={{
        title: 'Agent journeys',
        description: 'Watch an AI agent attempt a real task on a site, step by step.',
        canonical: `${baseUrl}/journeys`,
        nonce,
        script: true,
      }}
    >
      <h1>Agent journeys</h1>
      <p>
        An agent attempts a task on a site: find the pricing, the API reference, the support contact. Every step it
        takes is recorded.
      </p>
      <form method="post" action="/journeys" class="filters">
        <div>
          <label for="journey-domain">Domain</label>
          <input
            id="journey-domain"
            name="domain"
            type="text"
            required
            maxlength="253"
            autocomplete="url"
            spellcheck="false"
            autocapitalize="none"
            placeholder="example.com"
            data-domain-source
          />
        </div>
        <div>
          <label for="journey-intent">Task</label>
          <select id="journey-intent" name="intent">
            {intents.map((intent) => (
              <option value={intent.id} safe>
                {intent.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="journey-agent">Agent</label>
          <select id="journey-agent" name="agent">
            {agents.map((agent) => (
              <option value={agent.id} safe>
                {agent.identity === 'self' ? agent.label : `${agent.label} (${agent.identity})`}
              </option>
            ))}
          </select>
        </div>
        <div class="checkbox">
          <input
            id="journey-compare"
            name="compare"
            type="checkbox"
            value="1"
            aria-describedby="journey-compare-help"
          />
          <label for="journey-compare">Compare with a browser</label>
        </div>
        <button type="submit">Start the journey</button>
      </form>
      <p class="muted" id="journey-compare-help">
        An AI assistant's fetcher presents its published User-Agent and obeys robots.txt for it. Compare also walks the
        task as a plain browser, so the result tells "blocked for agents, reachable for browsers" from "not found".
      </p>
      <h2>Tasks</h2>
      <dl class="links">
        {intents.map((intent) => (
          <>
            <dt safe>{intent.title}</dt>
            <dd>
              <Prompt prompt={intent.prompt} />
            </dd>
          </>
        ))}
      </dl>
      <h2>Recent runs</h2>
      {recent.length === 0 ? (
        <p>No journey has run yet.</p>
      ) : (
        <ul class="runs">
          {recent.map((run) => (
            <li>
              <a href={journeyPath(run.id)} safe>{`${run.title} on ${run.domain}`}</a>{' '}
              <span
                class="muted"
                safe
              >{`${run.outcome ? (OUTCOME_WORDS[run.outcome] ?? run.outcome) : run.status} · ${day(run.createdAt)}`}</span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  )
}

/** `/journeys/{id}`: a run's trajectory; app.js follows the live stream while it runs. */
export function JourneyRunPage({
  run,
  title,
  baseUrl,
  nonce,
}: {
  run: JourneyRunRecord
  title: string
  baseUrl: string
  nonce: string
}): JSX.Element {
  const live = run.status === 'queued' || run.status === 'running'
  return (
    <Layout
      meta={{
        title: `${title} on ${run.domain}`,
        description: `An agent journey on ${run.domain}: ${run.status}.`,
        canonical: `${baseUrl}${journeyPath(run.id)}`,
        nonce,
        noindex: true,
        script: true,
      }}
    >
      <h1>
        <span safe>{title}</span> on{' '}
        <a href={reportPath(run.domain)} safe>
          {run.domain}
        </a>
      </h1>
      <p
        id="journey-status"
        role="status"
        data-journey-stream={live ? `/api/journey/runs/${encodeURIComponent(run.id)}/stream` : undefined}
      >
        <span safe>{`Status: ${run.status}`}</span>
        {live ? (
          <>
            {' '}
            · <a href={journeyPath(run.id)}>Refresh</a>
          </>
        ) : (
          ''
        )}
      </p>
      <p class="muted" id="journey-identity" safe>
        {`As ${identityText(run.identity)}`}
      </p>
      {run.verdict ? (
        <p
          class={`journey-verdict outcome-${run.verdict.outcome}`}
          id="journey-verdict"
          data-outcome={run.verdict.outcome}
        >
          <strong safe>{OUTCOME_WORDS[run.verdict.outcome] ?? run.verdict.outcome}</strong>
          <span
            safe
          >{`${run.verdict.outcome === 'blocked' ? ` for ${run.identity === 'self' ? 'our agent' : run.identity}` : ''}: ${run.verdict.reason}`}</span>
        </p>
      ) : (
        ''
      )}
      {run.insight?.comparison ? (
        <p class="notice" id="journey-comparison" data-finding={run.insight.comparison.finding}>
          <span safe>{run.insight.comparison.message}</span>{' '}
          <a
            href={journeyPath(
              run.compare?.role === 'browser'
                ? run.insight.comparison.agent_run_id
                : run.insight.comparison.browser_run_id,
            )}
          >
            {run.compare?.role === 'browser' ? 'The agent run' : 'The browser run'}
          </a>
        </p>
      ) : run.compare ? (
        <p class="muted" id="journey-comparison">
          Compared with{' '}
          <a href={journeyPath(run.compare.run_id)}>
            {run.compare.role === 'agent' ? 'a browser run' : 'the agent run'}
          </a>
          ; the comparison appears once both completed.
        </p>
      ) : (
        ''
      )}
      {run.error ? <p class="notice" safe>{`${run.error.code}: ${run.error.message}`}</p> : ''}
      {run.agent_response && run.verdict?.outcome === 'success' ? (
        <>
          <h2>Answer</h2>
          <pre id="journey-answer" safe>
            {run.agent_response}
          </pre>
        </>
      ) : (
        ''
      )}
      {run.insight && run.insight.related_checks.length > 0 ? (
        <>
          <h2>Checks that would help</h2>
          <ul id="journey-related-checks">
            {run.insight.related_checks.map((id) => (
              <li>
                <a href={`${reportPath(run.domain)}#check-${encodeURIComponent(id)}`} safe>
                  {id}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : (
        ''
      )}
      <h2>Trajectory</h2>
      <ol id="journey-steps" class="steps">
        {run.steps.map((step) => (
          <li>
            <strong safe>{step.label}</strong>{' '}
            <span
              class="muted"
              safe
            >{`${step.type} · ${step.tool ?? step.action} · ${step.status} · ${step.duration_ms} ms`}</span>
          </li>
        ))}
      </ol>
    </Layout>
  )
}
