import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from './config.ts'

describe('loadConfig', () => {
  test('embedded defaults when nothing is set', () => {
    const config = loadConfig({})
    expect(config.port).toBe(3000)
    expect(config.publicBaseUrl).toBe('http://localhost:3000')
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data/pglite' })
    expect(config.redisUrl).toBeNull()
    expect(config.scanner.allowPrivate).toBe(false)
    expect(config.scanner.timeoutMs).toBe(10_000)
    expect(config.scanner.maxBytes).toBe(5_242_880)
    expect(config.llm).toBeNull()
    expect(config.signingKey).toBeNull()
  })

  test('database forms: postgres, memory, file', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@127.0.0.1:5432/db',
    })
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: null })
    expect(loadConfig({ DATABASE_URL: 'file:/tmp/x' }).database).toEqual({ kind: 'pglite', dataDir: '/tmp/x' })
  })

  test('SCANNER_RESOLVE is parsed like curl --resolve', () => {
    const config = loadConfig({ SCANNER_RESOLVE: 'acme.test:443:127.0.0.1:8081, Shop.Test:80:[::1]' })
    expect(config.scanner.resolve).toEqual([
      { host: 'acme.test', port: 443, address: '127.0.0.1', addressPort: 8081 },
      { host: 'shop.test', port: 80, address: '::1', addressPort: 80 },
    ])
  })

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['SCANNER_ALLOW_PRIVATE', 'maybe'],
    ['SCANNER_RESOLVE', 'acme.test:443'],
    ['SCANNER_TIMEOUT_MS', '-1'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['LOG_LEVEL', 'loud'],
    ['LLM_PROVIDER', 'openai'],
  ])('invalid %s=%s names the variable', (name, value) => {
    try {
      loadConfig({ [name]: value })
      throw new Error('expected a ConfigError')
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).message).toContain(name)
    }
  })

  test('the config object is frozen', () => {
    const config = loadConfig({})
    expect(Object.isFrozen(config)).toBe(true)
  })
})
