/** SHA-256 digests of documents, in the lowercase hex that skills indexes publish. */
import { createHash } from 'node:crypto'

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}
