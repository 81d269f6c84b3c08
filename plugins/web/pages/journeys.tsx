import type { JourneyRunRecord } from '../../journey/model.ts'
import { Layout } from '../layout.tsx'
import { reportPath } from '../../scan/shapes.ts'

export const journeyPath = (id: string) => `/journeys/${encodeURIComponent(id)}`

/** `/journeys`: the curated intents, and the form that starts one against a domain. */
export function JourneysPage({ intents, baseUrl, nonce }: { intents: { id: string; title: string; prompt: string }[]; baseUrl: string; nonce: string }): JSX.Element {
  return (
    <Layout meta={{ title: 'Agent journeys', description: 'Watch an AI agent attempt a real task on a site, step by step.', canonical: `${baseUrl}/journeys`, nonce }}>
      <h1>Agent journeys</h1>
      <p>An agent attempts a task on a site: find the pricing, the API reference, the support contact. Every step it takes is recorded.</p>
      <form method="post" action="/journeys" class="filters">
        <label for="journey-domain">Domain</label>
        <input id="journey-domain" name="domain" type="text" required maxlength="253" autocomplete="url" spellcheck="false" autocapitalize="none" placeholder="example.com" />
        <label for="journey-intent">Task</label>
        <select id="journey-intent" name="intent">
          {intents.map((intent) => (
            <option value={intent.id} safe>
              {intent.title}
            </option>
          ))}
        </select>
        <button type="submit">Start the journey</button>
      </form>
      <h2>Tasks</h2>
      <dl class="links">
        {intents.map((intent) => (
          <>
            <dt safe>{intent.title}</dt>
            <dd safe>{intent.prompt}</dd>
          </>
        ))}
      </dl>
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
      {run.insight ? <p safe>{run.insight.summary}</p> : ''}
      {run.error ? <p class="notice" safe>{`${run.error.code}: ${run.error.message}`}</p> : ''}
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
