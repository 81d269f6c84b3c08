import { createHash } from 'node:crypto'
import { and, asc, eq, lt, or, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { Kernel } from '../../core/kernel.ts'
import { AppError } from '../../core/errors.ts'
import { CONTACT_ERRORS } from './errors.ts'
import type { ReleaseLock } from '../../core/store/types.ts'
import type { ContactConfig } from './config.ts'
import type { ContactInput } from './model.ts'
import { outbox } from './tables.ts'

type OutboxRow = typeof outbox.$inferSelect
type NewMail = Pick<typeof outbox.$inferInsert, 'kind' | 'to' | 'replyTo' | 'subject' | 'text'>
type MailDeps = Pick<Kernel, 'database' | 'log' | 'store'> & { config: ContactConfig }

/** nodemailer waits up to 2 minutes for a connection by default; a form submission should not. */
const SMTP_TIMEOUT_MS = 10_000
const MAX_ERROR_LENGTH = 1000
const INQUIRY = 'contact-inquiry'
const AUTO_REPLY = 'contact-autoreply'
/**
 * One auto-response per address per window. The per-IP contact limit bounds what one client sends, not what one
 * inbox receives: without this, many IPs could bury a stranger's address under our auto-responses.
 */
const AUTO_REPLY_WINDOW_MS = 60 * 60 * 1000

/**
 * Sends outbox rows through nodemailer and records every attempt on its row. nodemailer earns its place: SMTP
 * with STARTTLS/implicit TLS, AUTH, SMTP_URL parsing, dot-stuffing and RFC 2047 header encoding (which also keeps
 * CR/LF out of headers) are exactly the parts that go wrong in a hand-written client.
 */
export class OutboxMailer {
  private readonly transport: ReturnType<typeof nodemailer.createTransport> | null

  constructor(private readonly deps: Pick<MailDeps, 'config' | 'database' | 'log'>) {
    const { smtpUrl } = deps.config.mail
    // Options given in SMTP_URL's query string override these defaults (nodemailer merges the URL last).
    this.transport = smtpUrl
      ? nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        })
      : null
  }

  get configured(): boolean {
    return this.transport !== null
  }

  /** True when the server accepted the mail. A refused send is recorded on the row, not thrown (a database error is). */
  async deliver(row: OutboxRow): Promise<boolean> {
    if (!this.transport) throw new Error('deliver() needs SMTP_URL')
    const attempts = sql`${outbox.attempts} + 1`
    try {
      await this.transport.sendMail({
        from: this.deps.config.mail.from,
        to: row.to,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        text: row.text,
      })
    } catch (error) {
      const lastError = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH)
      await this.deps.database.db
        .update(outbox)
        .set({ status: 'failed', attempts, lastError })
        .where(eq(outbox.id, row.id))
      // The address and the text stay in the table: they are personal data, and the log is read more widely.
      this.deps.log.warn(
        { outboxId: row.id, kind: row.kind, attempt: row.attempts + 1, error: lastError },
        'mail not sent',
      )
      return false
    }
    await this.deps.database.db
      .update(outbox)
      .set({ status: 'sent', attempts, lastError: null, sentAt: new Date() })
      .where(eq(outbox.id, row.id))
    return true
  }
}

/**
 * The contact form: an inquiry to the operators (Reply-To: the submitter) and an auto-response to the submitter.
 * Both are written to the outbox before anything is sent, so a mail server that is down or absent loses nothing.
 */
export class ContactService {
  constructor(
    private readonly deps: MailDeps,
    private readonly mailer: OutboxMailer,
  ) {}

  /**
   * 200 when the inquiry was accepted by the SMTP server, or kept as `unconfigured` when there is none; MAIL_FAILED
   * (500) when the inquiry could not be sent. A failed auto-response alone does not fail the request: the
   * operators still got the message, and the retrier sends the auto-response later.
   */
  async submit(input: ContactInput): Promise<{ ok: true }> {
    const mails: NewMail[] = [inquiry(input, this.deps.config)]
    if (await this.firstAutoReplyInWindow(input.email)) mails.push(autoReply(input.email, this.deps.config))
    const status = this.mailer.configured ? ('pending' as const) : ('unconfigured' as const)
    const rows = await this.deps.database.db
      .insert(outbox)
      .values(mails.map((mail) => ({ ...mail, status })))
      .returning()
    if (!this.mailer.configured) {
      this.deps.log.info(
        { outboxIds: rows.map((row) => row.id), kinds: rows.map((row) => row.kind) },
        'contact form: no SMTP_URL, mails kept in the outbox table',
      )
      return { ok: true }
    }
    const delivered = await Promise.all(
      rows.map(async (row) => ({ kind: row.kind, sent: await this.mailer.deliver(row) })),
    )
    if (delivered.some((mail) => mail.kind === INQUIRY && !mail.sent)) {
      throw new AppError(CONTACT_ERRORS.MAIL_FAILED, {
        message: 'The mail server did not accept your message; it is kept and its delivery will be retried',
      })
    }
    return { ok: true }
  }

  /** Claims the address's auto-response for the window; an unreachable store lets it through, like the rate limits. */
  private async firstAutoReplyInWindow(email: string): Promise<boolean> {
    // Hashed: the store needs to recognise an address, not to hold it.
    const key = `contact:autoreply:${createHash('sha256').update(email.toLowerCase()).digest('hex')}`
    try {
      return await this.deps.store.setIfAbsent(key, '1', AUTO_REPLY_WINDOW_MS)
    } catch (error) {
      this.deps.log.error({ err: error }, 'contact form: store unavailable; auto-response not deduplicated')
      return true
    }
  }
}

export interface OutboxRetrierOptions {
  /** How often to look for due rows. Default 1 minute. */
  intervalMs?: number
  /** Attempt n+1 of a row is due `baseDelayMs * (2^n - 1)` after the row was created. Default 1 minute. */
  baseDelayMs?: number
  /** Attempts after which a row is left `failed` for good (a dead letter with its last error). Default 8. */
  maxAttempts?: number
}

/** Rows handled per pass: the next pass takes the rest. */
const BATCH_SIZE = 20
/** A pass sends at most BATCH_SIZE mails, each bounded by the SMTP timeouts; the lock outlives the longest pass. */
const PASS_LOCK_MS = 10 * 60 * 1000
/**
 * A `pending` row is one the request path is sending. Still `pending` long after every SMTP timeout means the
 * process died mid-send: the retrier takes it over.
 */
const STALE_PENDING_MS = 15 * 60 * 1000

/**
 * Retries failed outbox rows (of any kind: the outbox is not only the contact form's) with exponential backoff up to a maximum attempt count. The schedule is computed from
 * each row's creation time and attempt count, so it needs no extra column and survives restarts; a store lock makes
 * one instance at a time run a pass, so several API instances never send a row twice. `unconfigured` rows are
 * never sent: they were written while the deployment had no mail server and stay a record for the operators.
 */
export class OutboxRetrier {
  private readonly intervalMs: number
  private readonly baseDelayMs: number
  private readonly maxAttempts: number
  private timer: ReturnType<typeof setInterval> | null = null
  private pass: Promise<number> | null = null

  constructor(
    private readonly deps: Pick<MailDeps, 'database' | 'log' | 'store'>,
    private readonly mailer: OutboxMailer,
    options: OutboxRetrierOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000
    this.baseDelayMs = options.baseDelayMs ?? 60_000
    this.maxAttempts = options.maxAttempts ?? 8
  }

  /** Starts the periodic passes; a no-op without SMTP_URL, or when already started. */
  start(): void {
    if (this.timer || !this.mailer.configured) return
    this.timer = setInterval(() => {
      if (!this.pass) this.pass = this.runOnce().finally(() => (this.pass = null))
    }, this.intervalMs)
    this.timer.unref()
  }

  /** Stops the passes and waits for one in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.pass
  }

  /** One pass over the rows due at `now`; resolves to how many were sent. Never throws. */
  async runOnce(now = new Date()): Promise<number> {
    if (!this.mailer.configured) return 0
    let release: ReleaseLock | null
    try {
      release = await this.deps.store.acquireLock('lock:outbox-retry', PASS_LOCK_MS)
    } catch (error) {
      this.deps.log.warn({ err: error }, 'outbox retry: store unavailable, pass skipped')
      return 0
    }
    if (!release) return 0
    try {
      let sent = 0
      for (const row of await this.dueRows(now)) {
        if (await this.mailer.deliver(row)) sent++
        else if (row.attempts + 1 >= this.maxAttempts) {
          this.deps.log.error(
            { outboxId: row.id, kind: row.kind, attempts: row.attempts + 1 },
            'outbox retry: giving up on a mail',
          )
        }
      }
      return sent
    } catch (error) {
      this.deps.log.error({ err: error }, 'outbox retry: pass failed')
      return 0
    } finally {
      await release().catch(() => {})
    }
  }

  private dueRows(now: Date): Promise<OutboxRow[]> {
    const at = sql`${now.toISOString()}::timestamptz`
    const backoffDue = sql`${outbox.createdAt} + ${this.baseDelayMs}::float8 * (power(2, ${outbox.attempts}) - 1) * interval '1 millisecond' <= ${at}`
    return this.deps.database.db
      .select()
      .from(outbox)
      .where(
        and(
          lt(outbox.attempts, this.maxAttempts),
          or(
            and(eq(outbox.status, 'failed'), backoffDue),
            and(eq(outbox.status, 'pending'), lt(outbox.createdAt, new Date(now.getTime() - STALE_PENDING_MS))),
          ),
        ),
      )
      .orderBy(asc(outbox.id))
      .limit(BATCH_SIZE)
  }
}

function inquiry(input: ContactInput, config: MailDeps['config']): NewMail {
  return {
    kind: INQUIRY,
    to: config.mail.contactTo,
    // The bare, validated address: a display name built from the form could smuggle in extra recipients.
    replyTo: input.email,
    subject: `Contact form: ${input.name}`,
    text: `Name: ${input.name}\nEmail: ${input.email}\n\n${input.message}\n\n-- \nSent through the contact form of ${config.publicBaseUrl}. Replying answers ${input.email}.\n`,
  }
}

/**
 * Nothing the submitter typed appears in the auto-response, not even the name: the address is whatever someone put
 * into a public form, so any echoed text would let anyone send content of their choosing, from our server and under
 * our name, to any inbox.
 */
function autoReply(email: string, config: MailDeps['config']): NewMail {
  return {
    kind: AUTO_REPLY,
    to: email,
    replyTo: config.mail.contactTo,
    subject: `We received your message (${config.serviceHost})`,
    text: `Hello,\n\nthank you for writing to us through the contact form of ${config.publicBaseUrl}. We received your message and will answer you at this address.\n\nFor your privacy, your message is not repeated here. If you did not use our contact form, someone else entered your address: please ignore this mail.\n\n-- \n${config.serviceHost}\n`,
  }
}
