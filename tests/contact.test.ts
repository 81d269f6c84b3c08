import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { Elysia } from 'elysia'
import { SMTPServer } from 'smtp-server'
import type { AppHandle } from '../app/app.ts'
import { contactPlugin } from '../plugins/contact/index.ts'
import { OutboxRetrier } from '../plugins/contact/service.ts'
import { outbox } from '../plugins/contact/tables.ts'
import { request, testApp } from './helpers.ts'
import { clientIp } from './support/world.ts'

const CONTACT_TO = 'operators@agent-readiness.test'
const MAIL_FROM = 'Agent Readiness <no-reply@agent-readiness.test>'
// Fresh addresses per run: on a shared PostgreSQL the outbox keeps earlier runs' rows.
const run = randomUUID().slice(0, 8)
const address = (label: string) => `${label}-${run}@example.test`

interface Received {
  from: string
  to: string[]
  raw: string
}

/** A real SMTP server on loopback that keeps every message it accepts. */
async function startSmtp(port = 0): Promise<{ port: number; messages: Received[]; close(): Promise<void> }> {
  const messages: Received[] = []
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to make up for STARTTLS.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope
        messages.push({
          from: mailFrom ? mailFrom.address : '',
          to: rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const bound = (server.server.address() as { port: number }).port
  return { port: bound, messages, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** A loopback port nothing listens on (a mail server that is down). */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** Headers unfolded and the quoted-printable body decoded: enough of RFC 5322 to assert on. */
function parse(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n')
  const headers: Record<string, string> = {}
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = raw.slice(split + 4)
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  }
  return { headers, body: body.replace(/\r\n/g, '\n') }
}

const submit = (app: { handle(request: Request): Promise<Response> }, json: Record<string, unknown>, ip = clientIp()) =>
  app.handle(request('/api/contact', { method: 'POST', json, headers: { 'x-forwarded-for': ip } }))

async function rowsFor(handle: AppHandle, email: string) {
  const rows = await handle.pieces.database.db.select().from(outbox)
  // The inquiry goes to the operators with Reply-To the submitter; the auto-response goes to the submitter.
  return rows.filter((row) => row.to === email || row.replyTo === email).sort((a, b) => a.id - b.id)
}

const form = (email: string) => ({
  name: 'Ada Lovelace',
  email,
  message: 'Could you scan our MCP server as well? It lives under /mcp.',
})

describe('POST /api/contact with a mail server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let handle: AppHandle
  let app: { handle(request: Request): Promise<Response> }

  beforeAll(async () => {
    smtp = await startSmtp()
    handle = await testApp({ TRUST_PROXY: 'true', SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, CONTACT_TO, MAIL_FROM })
    app = new Elysia().use(contactPlugin(handle.pieces))
  })
  afterAll(async () => {
    await handle.close()
    await smtp.close()
  })

  test('delivers the inquiry to the operators and an auto-response that repeats nothing to the submitter', async () => {
    const email = address('ada')
    const response = await submit(app, form(email))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })

    const inquiry = smtp.messages.find((message) => message.to.includes(CONTACT_TO) && message.raw.includes(email))
    const autoReply = smtp.messages.find((message) => message.to.includes(email))
    if (!inquiry || !autoReply) throw new Error('both mails should have reached the SMTP server')
    expect(inquiry.to).toEqual([CONTACT_TO])
    expect(inquiry.from).toBe('no-reply@agent-readiness.test')
    const sentInquiry = parse(inquiry.raw)
    expect(sentInquiry.headers.to).toBe(CONTACT_TO)
    expect(sentInquiry.headers['reply-to']).toBe(email)
    expect(sentInquiry.headers.subject).toBe('Contact form: Ada Lovelace')
    expect(sentInquiry.body).toContain('Could you scan our MCP server as well? It lives under /mcp.')
    expect(sentInquiry.body).toContain('Name: Ada Lovelace')

    expect(autoReply.to).toEqual([email])
    const sentReply = parse(autoReply.raw)
    expect(sentReply.headers.subject).toBe('We received your message (localhost:3000)')
    expect(sentReply.headers['reply-to']).toBe(CONTACT_TO)
    expect(sentReply.body).toContain('We received your message')
    expect(sentReply.body).not.toContain('Ada')
    expect(sentReply.body).not.toContain('MCP server')

    const rows = await rowsFor(handle, email)
    expect(rows.map((row) => [row.kind, row.status, row.attempts])).toEqual([
      ['contact-inquiry', 'sent', 1],
      ['contact-autoreply', 'sent', 1],
    ])
    expect(rows.every((row) => row.sentAt instanceof Date && row.lastError === null)).toBe(true)
  })

  test('one auto-response per address per hour: a second submission only reaches the operators', async () => {
    const email = address('twice')
    expect((await submit(app, form(email))).status).toBe(200)
    expect((await submit(app, { ...form(email), message: 'And a second question, please.' })).status).toBe(200)
    expect((await rowsFor(handle, email)).map((row) => row.kind)).toEqual([
      'contact-inquiry',
      'contact-autoreply',
      'contact-inquiry',
    ])
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(1)
  })

  test.each([
    ['a CR/LF in the name (header injection)', { name: 'Ada\r\nBcc: victim@example.test' }],
    ['a CR/LF in the email (header injection)', { email: 'ada@example.test\r\nBcc: victim@example.test' }],
    ['a name over 120 characters', { name: 'a'.repeat(121) }],
    ['an invalid email', { email: 'ada@' }],
    [
      'an email over 254 characters',
      { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.test` },
    ],
    ['a message under 10 characters', { message: 'too short' }],
    ['a message over 5000 characters', { message: 'x'.repeat(5001) }],
  ])('400 VALIDATION_FAILED for %s, and nothing is written or sent', async (_, override) => {
    const before = smtp.messages.length
    const response = await submit(app, { ...form(address('invalid')), ...override })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { code: string }).code).toBe('VALIDATION_FAILED')
    expect(smtp.messages.length).toBe(before)
  })

  test('429 after 3 submissions per IP in 10 minutes', async () => {
    const ip = clientIp()
    for (let i = 0; i < 3; i++) expect((await submit(app, form(address(`limit${i}`)), ip)).status).toBe(200)
    const response = await submit(app, form(address('limit3')), ip)
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
  })
})

describe('POST /api/contact with the mail server down', () => {
  let port: number
  let handle: AppHandle
  let smtp: Awaited<ReturnType<typeof startSmtp>> | null = null
  const email = address('down')

  beforeAll(async () => {
    port = await closedPort()
    handle = await testApp({ TRUST_PROXY: 'true', SMTP_URL: `smtp://127.0.0.1:${port}`, CONTACT_TO, MAIL_FROM })
  })
  afterAll(async () => {
    await handle.close()
    await smtp?.close()
  })

  test('500 MAIL_FAILED, and both mails stay in the outbox as failed with their error', async () => {
    const response = await submit(new Elysia().use(contactPlugin(handle.pieces)), form(email))
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ code: 'MAIL_FAILED', error: 'Mail delivery failed' })
    const rows = await rowsFor(handle, email)
    expect(rows.map((row) => [row.kind, row.status, row.attempts, row.sentAt])).toEqual([
      ['contact-inquiry', 'failed', 1, null],
      ['contact-autoreply', 'failed', 1, null],
    ])
    for (const row of rows) expect(row.lastError).toMatch(/ECONNREFUSED/)
  })

  test('the retrier waits out the backoff, then sends the failed rows once the server is back', async () => {
    const retrier = new OutboxRetrier(handle.pieces, handle.pieces.mailer, { baseDelayMs: 60_000 })
    // Attempt 2 is due a minute after the row was created: not yet.
    await retrier.runOnce()
    expect((await rowsFor(handle, email)).map((row) => row.status)).toEqual(['failed', 'failed'])

    smtp = await startSmtp(port)
    await retrier.runOnce(new Date(Date.now() + 61_000))
    const rows = await rowsFor(handle, email)
    expect(rows.map((row) => [row.status, row.attempts, row.lastError])).toEqual([
      ['sent', 2, null],
      ['sent', 2, null],
    ])
    expect(
      smtp.messages.filter((message) => message.to.includes(CONTACT_TO) && message.raw.includes(email)),
    ).toHaveLength(1)
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(1)

    // Sent rows are never sent again.
    await retrier.runOnce(new Date(Date.now() + 24 * 60 * 60_000))
    expect(smtp.messages.filter((message) => message.raw.includes(email) || message.to.includes(email))).toHaveLength(2)
  })

  test('a row that keeps failing is given up after the maximum attempt count', async () => {
    await smtp?.close()
    smtp = null
    const giveUp = address('giveup')
    expect((await submit(new Elysia().use(contactPlugin(handle.pieces)), form(giveUp))).status).toBe(500)
    const retrier = new OutboxRetrier(handle.pieces, handle.pieces.mailer, { baseDelayMs: 1, maxAttempts: 3 })
    const later = new Date(Date.now() + 60_000)
    for (let pass = 0; pass < 4; pass++) await retrier.runOnce(later)
    expect((await rowsFor(handle, giveUp)).map((row) => [row.status, row.attempts])).toEqual([
      ['failed', 3],
      ['failed', 3],
    ])
  })
})

describe('POST /api/contact without a mail server', () => {
  let handle: AppHandle

  beforeAll(async () => {
    handle = await testApp({ TRUST_PROXY: 'true', SMTP_URL: undefined, CONTACT_TO, MAIL_FROM })
  })
  afterAll(() => handle.close())

  test('200, and both mails are kept in the outbox as unconfigured', async () => {
    const email = address('nosmtp')
    const response = await submit(new Elysia().use(contactPlugin(handle.pieces)), form(email))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    const rows = await rowsFor(handle, email)
    expect(rows.map((row) => [row.kind, row.to, row.replyTo, row.status, row.attempts])).toEqual([
      ['contact-inquiry', CONTACT_TO, email, 'unconfigured', 0],
      ['contact-autoreply', email, CONTACT_TO, 'unconfigured', 0],
    ])
    expect(rows[0]?.text).toContain('Could you scan our MCP server as well?')
    // Nothing to retry without a mail server: unconfigured rows are a record, not a queue.
    expect(
      await new OutboxRetrier(handle.pieces, handle.pieces.mailer).runOnce(new Date(Date.now() + 60 * 60_000)),
    ).toBe(0)
  })
})
