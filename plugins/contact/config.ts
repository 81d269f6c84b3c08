import { z } from 'zod'
import { type Config, configKeys } from '../../core/config.ts'

/** Where the contact form's mail goes; without SMTP_URL every mail stays in the outbox table (and is logged). */
export const CONTACT_CONFIG = configKeys(
  {
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'expected smtp://… or smtps://…')
      .optional(),
    MAIL_FROM: z.string().min(3).optional(),
    CONTACT_TO: z.string().min(3).optional(),
  },
  (values, config) => ({
    mail: {
      smtpUrl: values.SMTP_URL ?? null,
      from: values.MAIL_FROM ?? `agent-readiness <no-reply@${new URL(config.publicBaseUrl).hostname}>`,
      contactTo: values.CONTACT_TO ?? `operators@${new URL(config.publicBaseUrl).hostname}`,
    },
  }),
)

/** The kernel's config with the contact form's mail settings, as the contact feature receives it. */
export type ContactConfig = Readonly<Config & ReturnType<typeof CONTACT_CONFIG.settings>>
