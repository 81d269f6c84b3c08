import { z } from 'zod'

/** Control characters (CR and LF above all) never belong in a name; the name reaches a mail's Subject header. */
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}]*$/u

export const contactBody = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .regex(NO_CONTROL_CHARACTERS, 'must be one line without control characters')
    .describe('Your name, at most 120 characters, one line'),
  email: z.email().max(254).describe('Where the operators reply and the auto-response goes, at most 254 characters'),
  message: z.string().trim().min(10).max(5000).describe('10-5000 characters'),
})

export type ContactInput = z.infer<typeof contactBody>

export const contactResponse = z.object({ ok: z.literal(true) })
