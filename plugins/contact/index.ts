import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { CONTACT_CONFIG, type ContactConfig } from './config.ts'
import { ContactService, OutboxMailer, OutboxRetrier } from './service.ts'
import { contactBody, contactResponse } from './model.ts'
import { errorResponse } from '../../core/errors.ts'
import { CONTACT_ERRORS } from './errors.ts'
import { limitWindow } from '../../core/limits.ts'
import { CONTACT_LIMITS } from './limits.ts'

type ContactNeeds = Pick<KernelPieces, 'context' | 'database' | 'log' | 'store'> & { config: ContactConfig }

type ContactProvides = { mailer: OutboxMailer; contactService: ContactService }

export function contactPlugin({ context, contactService: service }: Pick<ContactNeeds, 'context'> & ContactProvides) {
  return new Elysia({ name: 'contact' }).use(context).post('/api/contact', ({ body }) => service.submit(body), {
    limit: CONTACT_LIMITS.contact,
    parse: 'json',
    body: contactBody,
    response: { 200: contactResponse, 400: errorResponse, 429: errorResponse, 500: errorResponse },
    detail: {
      tags: ['Contact'],
      summary: 'Write to the operators',
      description: `Sends an inquiry to the operators (Reply-To: \`email\`) and an auto-response to \`email\`. The auto-response repeats nothing that was submitted, and goes out at most once per address per hour. Both mails are written to the outbox before sending: without a configured mail server they stay there and the answer is still 200. 400 \`VALIDATION_FAILED\` (name 1-120 characters on one line, a valid email of at most 254 characters, message 10-5000 characters); 429 after ${CONTACT_LIMITS.contact.limit} submissions per IP per ${limitWindow(CONTACT_LIMITS.contact)}; 500 \`MAIL_FAILED\` when the mail server did not accept the inquiry (it stays in the outbox and is retried).`,
    },
  })
}

/** The contact form, its one SMTP transport, and the retry of mail that could not be sent. */
export const contactFeature = defineFeature<ContactNeeds, ContactProvides>()({
  name: 'contact',
  needs: ['context', 'config', 'database', 'log', 'store'],
  provides: ['mailer', 'contactService'],
  limits: CONTACT_LIMITS,
  configKeys: CONTACT_CONFIG,
  provide: (deps) => {
    const mailer = new OutboxMailer(deps)
    return { mailer, contactService: new ContactService(deps, mailer) }
  },
  routes: contactPlugin,
  background: (deps) => [new OutboxRetrier(deps, deps.mailer)],
  errors: { codes: CONTACT_ERRORS },
})
