import { Layout } from '../layout.tsx'

export interface ErrorView {
  status: number
  title: string
  message: string
  code?: string
}

/** The HTML face of an API error envelope on a page route. */
export function ErrorPage({ error, baseUrl, path, nonce }: { error: ErrorView; baseUrl: string; path: string; nonce: string }): JSX.Element {
  return (
    <Layout meta={{ title: `${error.title} (${error.status})`, description: error.message, canonical: `${baseUrl}${path}`, nonce, noindex: true }}>
      <h1 safe>{error.title}</h1>
      <p safe>{error.message}</p>
      {error.code ? (
        <p class="muted">
          Error code <code safe>{error.code}</code>, status {String(error.status)}.
        </p>
      ) : (
        ''
      )}
      <p>
        <a href="/">Back to the scan form</a>
      </p>
    </Layout>
  )
}
