import { Layout } from '../layout.tsx'

export interface ErrorView {
  status: number
  title: string
  message: string
  code?: string
  /** A limit's Retry-After: when the next attempt is allowed. */
  retryAfterSeconds?: number
}

/** The HTML face of an API error envelope on a page route. */
export function ErrorPage({
  error,
  baseUrl,
  path,
  nonce,
}: {
  error: ErrorView
  baseUrl: string
  path: string
  nonce: string
}): JSX.Element {
  return (
    <Layout
      meta={{
        title: `${error.title} (${error.status})`,
        description: error.message,
        canonical: `${baseUrl}${path}`,
        nonce,
        noindex: true,
      }}
    >
      <h1 safe>{error.title}</h1>
      <p safe>{error.message}</p>
      {error.code ? (
        <p class="muted">
          Error code <code safe>{error.code}</code>, status {String(error.status)}.
        </p>
      ) : (
        ''
      )}
      {error.status === 429 ? <RetryAdvice seconds={error.retryAfterSeconds} /> : ''}
      <p>
        <a href="/">Back to the scan form</a>
      </p>
    </Layout>
  )
}

/** A limit reached: when the next scan is possible, and what lifts the limits. */
function RetryAdvice({ seconds }: { seconds?: number }): JSX.Element {
  const at = seconds === undefined ? null : new Date(Date.now() + seconds * 1000)
  return (
    <p id="retry-advice">
      {at ? (
        <>
          {`The next one is possible in about ${Math.max(1, Math.ceil(seconds! / 60))} minutes (at `}
          <time datetime={at.toISOString()}>{`${at.toISOString().slice(11, 16)} UTC`}</time>
          {'). '}
        </>
      ) : (
        ''
      )}
      A scan key lifts the scan limits: send it as <code>Authorization: Bearer &lt;key&gt;</code> to the{' '}
      <a href="/api">API</a>, or set <code>AGENT_READINESS_KEY</code> for the CLI's <code>--server</code>. Keys are
      issued by the operators on request.
    </p>
  )
}
