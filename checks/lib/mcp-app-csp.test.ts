import { describe, expect, test } from 'bun:test'
import { cspEntryCovers, externalReferences, undeclaredReferences } from './mcp-app-csp.ts'

describe('externalReferences', () => {
  test('finds loads, frames, base and connections, by CSP list', () => {
    const html = `<!doctype html><html><head>
      <base href="https://static.acme.test/">
      <link rel="stylesheet" href="https://fonts.example/css">
      <link rel="preconnect" href="https://ignored.example">
      <script type="module" src="//cdn.example/app.js"></script>
      <style>.hero { background: url("https://img.example/hero.png") }</style>
    </head><body>
      <img src="/local.png" srcset="https://img2.example/a.png 2x, data:image/png;base64,AAAA 1x">
      <a href="https://docs.example/">docs</a>
      <iframe src="https://www.youtube.com/embed/x"></iframe>
      <script>
        fetch('https://api.example/v1/items'); new WebSocket("wss://live.example/feed")
        const xhr = new XMLHttpRequest(); xhr.open("GET", "https://legacy.example/x")
        import("https://esm.example/lib.js")
      </script>
    </body></html>`
    const found = externalReferences(html).map((reference) => `${reference.directive} ${reference.origin}`)
    expect(found.sort()).toEqual(
      [
        'baseUriDomains https://static.acme.test',
        'connectDomains https://api.example',
        'connectDomains https://legacy.example',
        'connectDomains wss://live.example',
        'frameDomains https://www.youtube.com',
        'resourceDomains https://cdn.example',
        'resourceDomains https://esm.example',
        'resourceDomains https://fonts.example',
        'resourceDomains https://img.example',
        'resourceDomains https://img2.example',
      ].sort(),
    )
  })

  test('a self-contained view reaches nothing', () => {
    expect(
      externalReferences(
        '<!doctype html><html><body><script>fetch("/api")</script><img src="data:image/png;base64,AA"></body></html>',
      ),
    ).toEqual([])
  })
})

describe('cspEntryCovers', () => {
  test.each([
    ['https://api.example', 'https://api.example', true],
    ['https://api.example/', 'https://api.example', true],
    ['https://API.example', 'https://api.example', true],
    ['https://api.example', 'https://other.example', false],
    ['https://*.example', 'https://cdn.example', true],
    ['https://*.example', 'https://example', false],
    ['https://api.example', 'wss://api.example', true],
    ['wss://live.example', 'wss://live.example', true],
    ['http://api.example', 'https://api.example', true],
    ['https://api.example', 'http://api.example', false],
    ['api.example', 'https://api.example', true],
    ['https://api.example:8443', 'https://api.example', false],
    ['https://api.example:8443', 'https://api.example:8443', true],
    ['*', 'https://anything.example', true],
    ["'self'", 'https://api.example', false],
  ] as const)('%s covers %s: %s', (entry, origin, expected) => {
    expect(cspEntryCovers(entry, origin)).toBe(expected)
  })

  test('undeclared references are matched per list', () => {
    const references = externalReferences(
      '<img src="https://cdn.example/a.png"><script>fetch("https://cdn.example/x")</script>',
    )
    expect(
      undeclaredReferences(references, { resourceDomains: ['https://cdn.example'] }).map(
        (reference) => reference.directive,
      ),
    ).toEqual(['connectDomains'])
    expect(undeclaredReferences(references, null)).toHaveLength(2)
  })
})
