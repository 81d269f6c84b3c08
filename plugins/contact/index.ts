import { Elysia } from 'elysia'
import type { Root } from '../../core/root.ts'
import { contactBody, contactResponse } from './model.ts'
import { errorResponse } from '../../core/errors.ts'

export function contactPlugin({ deps, services, context }: Root) {
  const service = services.contact
  return new Elysia({ name: 'contact' })
    .use(context)
    .post('/api/contact', ({ body }) => service.submit(body), {
      limit: 'contact',
      parse: 'json',
      body: contactBody,
      response: { 200: contactResponse, 400: errorResponse, 429: errorResponse, 500: errorResponse },
      detail: {
        tags: ['Contact'],
        summary: 'Write to the operators',
        description:
          'Sends an inquiry to the operators (Reply-To: `email`) and an auto-response to `email`. The auto-response repeats nothing that was submitted, and goes out at most once per address per hour. Both mails are written to the outbox before sending: without a configured mail server they stay there and the answer is still 200. 400 `VALIDATION_FAILED` (name 1-120 characters on one line, a valid email of at most 254 characters, message 10-5000 characters); 429 after 3 submissions per IP per 10 minutes; 500 `MAIL_FAILED` when the mail server did not accept the inquiry (it stays in the outbox and is retried).',
      },
    })
}
