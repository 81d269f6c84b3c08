import { z } from 'zod'
import { type Config, configKeys } from '../../core/config.ts'

export const WEB_BOT_AUTH_CONFIG = configKeys({ CONTACT_EMAIL: z.string().min(3).optional() }, (values, config) => ({
  /** The address the key directory names for site operators who receive our signed requests. */
  contactEmail: values.CONTACT_EMAIL ?? `operators@${new URL(config.publicBaseUrl).hostname}`,
}))

/** The kernel's config with the directory's contact address, as the web-bot-auth feature receives it. */
export type WebBotAuthConfig = Readonly<Config & ReturnType<typeof WEB_BOT_AUTH_CONFIG.settings>>
