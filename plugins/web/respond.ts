import { randomBytes } from 'node:crypto'

/**
 * Every page is served under this policy: scripts only from our origin or carrying the request's nonce (the one
 * inline script element is JSON-LD, which never runs), styles only from our stylesheet (layer bars are <meter>s,
 * charts are SVG attributes, so no inline style is needed), no plugins, no <base> rewriting, no framing.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ')
}

export const newNonce = () => randomBytes(16).toString('base64')

/** The headers every HTML page carries besides its content type. */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(nonce),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  }
}

export const HTML_TYPE = 'text/html; charset=utf-8'

/**
 * JSON for a <script type="application/ld+json"> element: the HTML parser ends a script at `</script` whatever
 * the type, so `<` (and `>`, `&`, the JS line separators for good measure) go out as \u escapes, which any JSON
 * reader decodes back to the same text.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029')
}
