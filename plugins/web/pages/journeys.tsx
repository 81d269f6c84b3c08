import type { JourneyRunRecord } from '../../journey/model.ts'
import { day } from '../components.tsx'
import { Layout } from '../layout.tsx'
import { reportPath } from '../../scan/shapes.ts'

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

/** `/journeys`: the curated intents, the form that starts one against a domain, and the newest public runs. */
export function JourneysPage({ intents, recent, baseUrl, nonce }: { intents: { id: string; title: string; prompt: string }[]; recent: RecentRun[]; baseUrl: string; nonce: string }): JSX.Element {
  return (
    <Layout meta={{ title: 'Agent journeys', description: 'Watch an AI agent attempt a real task on a site, step by step.', canonical: `${baseUrl}/journeys`, nonce, script: true }}>
      <h1>Agent journeys</h1>
      <p>An agent attempts a task on a site: find the pricing, the API reference, the support contact. Every step it takes is recorded.</p>
      <form method="post" action="/journeys" class="filters">
        <div>
          <label for="journey-domain">Domain</label>
          <input id="journey-domain" name="domain" type="text" required maxlength="253" autocomplete="url" spellcheck="false" autocapitalize="none" placeholder="example.com" data-domain-source />
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
        <button type="submit">Start the journey</button>
      </form>
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
              <span class="muted" safe>{`${run.outcome ? `${run.status}: ${run.outcome}` : run.status} · ${day(run.createdAt)}`}</span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  )
}

/** `/journeys/{id}`: a run's trajectory; app.js follows the live stream while it runs. */
export function JourneyRunPage({ run, title, baseUrl, nonce }: { run: JourneyRunRecord; title: string; baseUrl: string; nonce: string }): JSX.Element {
  const live = run.status === 'queued' || run.status === 'running'
  return (
    <Layout
      meta={{ title: `${title} on ${run.domain}`, description: `An agent journey on ${run.domain}: ${run.status}.`, canonical: `${baseUrl}${journeyPath(run.id)}`, nonce, noindex: true, script: true }}
    >
      <h1>
        <span safe>{title}</span> on <a href={reportPath(run.domain)} safe>{run.domain}</a>
      </h1>
      <p id="journey-status" role="status" data-journey-stream={live ? `/api/journey/runs/${encodeURIComponent(run.id)}/stream` : undefined}>
        <span safe>{`Status: ${run.status}`}</span>
        {run.verdict ? <span safe>{` · verdict: ${run.verdict.outcome}. ${run.verdict.reason}`}</span> : ''}
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
        {run.identity === 'self' ? 'As our own agent (AgentReadiness)' : run.identity === 'browser' ? 'As a plain browser (compare baseline)' : `As ${run.identity}, the user-triggered fetcher of an AI assistant`}
      </p>
      {run.insight ? <p safe>{run.insight.summary}</p> : ''}
      {run.insight?.comparison ? (
        <p class="notice" id="journey-comparison" data-finding={run.insight.comparison.finding}>
          <span safe>{run.insight.comparison.message}</span>{' '}
          <a href={journeyPath(run.compare?.role === 'browser' ? run.insight.comparison.agent_run_id : run.insight.comparison.browser_run_id)}>
            {run.compare?.role === 'browser' ? 'The agent run' : 'The browser run'}
          </a>
        </p>
      ) : run.compare ? (
        <p class="muted" id="journey-comparison">
          Compared with <a href={journeyPath(run.compare.run_id)}>{run.compare.role === 'agent' ? 'a browser run' : 'the agent run'}</a>; the comparison appears once both completed.
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
            <span class="muted" safe>{`${step.type} · ${step.tool ?? step.action} · ${step.status} · ${step.duration_ms} ms`}</span>
          </li>
        ))}
      </ol>
    </Layout>
  )
}
