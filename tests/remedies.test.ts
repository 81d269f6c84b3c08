import { describe, expect, test } from 'bun:test'
import { REGISTERED_CHECKS } from '../checks/index.ts'
import { REMEDIES, remedyFor } from '../core/report/remedies.ts'

const site = { domain: 'acme.test', origin: 'https://acme.test' }

describe('remedies', () => {
  test('every remedy key is a real check id', () => {
    const ids = new Set(REGISTERED_CHECKS.map((check) => check.definition.meta.id))
    const unknown = Object.keys(REMEDIES).filter((id) => !ids.has(id))
    expect(unknown).toEqual([])
  })

  test('every remedy has a snippet, and recipes name the servers the issue asks for', () => {
    for (const id of Object.keys(REMEDIES)) {
      const remedy = remedyFor(id, site)!
      expect(remedy.snippet.code.length).toBeGreaterThan(10)
      expect(remedy.snippet.label.length).toBeGreaterThan(5)
      // A server setting comes with every server's recipe; a rendering fix names the frameworks instead.
      if (remedy.recipes.length > 0 && id !== 'content-without-js') {
        expect(remedy.recipes.map((recipe) => recipe.server)).toEqual([
          'nginx',
          'Apache',
          'Caddy',
          'Cloudflare',
          'Express',
          'Next.js',
        ])
      }
    }
  })

  test('the headers and robots fixes come with per-server recipes', () => {
    for (const id of [
      'robots-txt',
      'robots-ai-agents-allowed',
      'link-headers',
      'bot-challenge-free',
      'markdown-negotiation',
    ]) {
      expect(remedyFor(id, site)!.recipes.length).toBe(6)
    }
  })

  test('snippets are written for the scanned site', () => {
    expect(remedyFor('robots-txt', site)!.snippet.code).toContain('Sitemap: https://acme.test/sitemap.xml')
    expect(remedyFor('llms-txt', site)!.snippet.code).toStartWith('# acme.test\n')
    const catalog = JSON.parse(remedyFor('mcp-server-card', site)!.snippet.code) as {
      entries: { identifier: string; data: { remotes: { url: string }[] } }[]
    }
    expect(catalog.entries[0]!.identifier).toBe('urn:air:acme.test:mcp')
    expect(catalog.entries[0]!.data.remotes[0]!.url).toBe('https://acme.test/mcp')
  })

  test('the robots.txt group lets in the agents that act for people, never asks to allow training crawlers', () => {
    const code = remedyFor('robots-ai-agents-allowed', site)!.snippet.code
    expect(code).toContain('User-agent: ChatGPT-User')
    expect(code).toContain('User-agent: Claude-User')
    expect(code).not.toContain('GPTBot')
    expect(code.trimEnd()).toEndWith('Allow: /')
  })

  test('a check without a remedy has none', () => {
    expect(remedyFor('mcp-ping', site)).toBeNull()
  })
})
