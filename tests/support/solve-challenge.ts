import { createHash } from 'node:crypto'

/**
 * Solves an agent-verification challenge the way an agent would: from the published steps, without the server's
 * code, so a test that passes with it shows the instructions are followable as written.
 */
export function solveChallenge(data: { items: string[]; modulus: number }): string {
  const words: string[] = []
  let numberSum = 0
  for (const item of data.items) {
    if (/^[a-z]+$/.test(item)) words.push(item)
    else if (/^[0-9]+$/.test(item)) numberSum += Number.parseInt(item, 10)
  }
  const reversed = words.map((word) => word.split('').reverse().join('')).sort()
  const a = createHash('sha256').update(reversed.join(',')).digest('hex').slice(0, 16)
  const b = numberSum % data.modulus
  let codes = 0
  for (const word of words) for (let i = 0; i < word.length; i++) codes += word.charCodeAt(i)
  const c = codes % data.modulus
  const d = btoa(reversed.slice(0, 3).join('-'))
  return [a, b, c, d].join(':')
}
