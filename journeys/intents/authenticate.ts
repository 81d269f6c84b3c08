import { defineIntent, type FetchedPage } from '../types.ts'
import { answerFrom, completedPages, hasUrl, jsonObject, judgement } from '../judging.ts'

/** RFC 8414 or OpenID Connect discovery metadata: an issuer and a token endpoint to get a token from. */
function authorizationServer(page: FetchedPage): boolean {
  const metadata = jsonObject(page)
  return metadata !== null && hasUrl(metadata, 'issuer') && hasUrl(metadata, 'token_endpoint')
}

/** RFC 9728 protected resource metadata: the resource and the authorization servers that issue its tokens. */
function protectedResource(page: FetchedPage): boolean {
  const metadata = jsonObject(page)
  if (!metadata || !hasUrl(metadata, 'resource') || !Array.isArray(metadata.authorization_servers)) return false
  return metadata.authorization_servers.some((server) => typeof server === 'string' && /^https?:\/\//.test(server))
}

/** The endpoints an agent authenticates with, as the metadata names them. */
function endpoints(page: FetchedPage): string {
  const metadata = jsonObject(page)!
  if (authorizationServer(page)) {
    const named = (['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const).filter(
      (key) => hasUrl(metadata, key),
    )
    return `OAuth ${named.map((key) => `${key.replace('_', ' ')} ${metadata[key] as string}`).join('; ')} (metadata ${page.finalUrl}).`
  }
  const servers = (metadata.authorization_servers as unknown[]).filter(
    (server): server is string => typeof server === 'string',
  )
  return `OAuth protected resource ${metadata.resource as string}, authorization servers ${servers.join(', ')} (metadata ${page.finalUrl}).`
}

/**
 * Found when the agent read OAuth metadata it could authenticate with: authorization server (or OpenID) metadata
 * with an issuer and a token endpoint, or protected resource metadata naming an authorization server. Prose about
 * logging in is not something an agent can act on.
 */
export default defineIntent({
  meta: {
    id: 'authenticate',
    title: 'Find how to authenticate',
    prompt: 'Find out how an agent can authenticate with {domain}: its OAuth authorization server and token endpoint.',
    layers: ['identity'],
    keywords: ['oauth', 'authentication', 'authorization', 'openid', 'token', 'login', 'sign in'],
    paths: [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ],
    relatedChecks: ['oauth-protected-resource', 'oauth-authorization-server', 'oauth-client-registration'],
  },
  judge(_trajectory, evidence) {
    const metadata = completedPages(evidence).filter((page) => authorizationServer(page) || protectedResource(page))
    // The authorization server's metadata first: its token endpoint is the answer.
    const ordered = [...metadata.filter(authorizationServer), ...metadata.filter((page) => !authorizationServer(page))]
    const judged = judgement(
      ordered,
      (page) => `${page.finalUrl} is OAuth metadata an agent can authenticate with.`,
      'No OAuth authorization server or protected resource metadata was found.',
      (found) => answerFrom(found[0]!, found.slice(0, 2).map(endpoints).join(' ')),
    )
    // Protected resource metadata names the server; its token endpoint is what an agent needs: it keeps looking for it.
    return { ...judged, settled: metadata.some(authorizationServer) }
  },
})
