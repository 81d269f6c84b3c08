import type { Config } from '../config.ts'
import type { ScanReport } from './scan.ts'

const LLM_TIMEOUT_MS = 20_000

/** A one-sentence verdict built from the results alone: always available, and the fallback for the model. */
export function deterministicSummary(report: ScanReport): string {
  const measured = report.layers.filter((layer) => layer.maxScore > 0)
  const percent = (layer: (typeof measured)[number]) => Math.round((layer.score / layer.maxScore) * 100)
  const sorted = [...measured].sort((a, b) => percent(b) - percent(a))
  const best = sorted[0]
  const worst = sorted.at(-1)
  const fix = report.topFixes[0]
  const subject = report.name && report.name !== report.domain ? `${report.name} (${report.domain})` : report.domain
  const strengths =
    best && worst && best !== worst
      ? `agents do best on ${best.name.toLowerCase()} (${percent(best)}%) and worst on ${worst.name.toLowerCase()} (${percent(worst)}%)`
      : 'no layer could be measured apart from the others'
  const next = fix ? `; the biggest win is ${fix.name.toLowerCase()} (+${fix.estScoreGain})` : ''
  return `${subject} scores ${report.score}/100 (${report.grade}) for AI agents: ${strengths}${next}.`
}

interface SummaryPrompt {
  system: string
  user: string
}

function promptFor(report: ScanReport): SummaryPrompt {
  const layers = report.layers.map((layer) => `${layer.name}: ${layer.score}/${layer.maxScore}`).join(', ')
  const fixes = report.topFixes.map((fix) => `${fix.name} (+${fix.estScoreGain})`).join('; ')
  return {
    system:
      'You write one plain sentence (at most 40 words) telling a site owner how ready their site is for AI agents. No markdown, no lists, no preamble.',
    user: `Site: ${report.domain}. Score ${report.score}/100, grade ${report.grade}. Layers: ${layers}. Top fixes: ${fixes || 'none'}.`,
  }
}

/** Asks the configured model for the sentence; any failure falls back to the deterministic one. */
export async function agenticSummary(report: ScanReport, config: Pick<Config, 'llm'>): Promise<string> {
  const llm = config.llm
  if (!llm) return deterministicSummary(report)
  const { system, user } = promptFor(report)
  try {
    const sentence =
      llm.provider === 'anthropic'
        ? await callAnthropic(llm, system, user)
        : await callOpenAiCompatible(llm, system, user)
    const cleaned = sentence.replace(/\s+/g, ' ').trim()
    return cleaned.length >= 20 && cleaned.length <= 400 ? cleaned : deterministicSummary(report)
  } catch {
    return deterministicSummary(report)
  }
}

type Llm = NonNullable<Config['llm']>

async function callOpenAiCompatible(llm: Llm, system: string, user: string): Promise<string> {
  const response = await fetch(`${(llm.baseUrl ?? 'https://api.openai.com/v1').replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${llm.apiKey}` },
    body: JSON.stringify({
      model: llm.model,
      max_tokens: 120,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    }),
    signal: AbortSignal.timeout(LLM_TIMEOUT_MS),
  })
  if (!response.ok) throw new Error(`model answered ${response.status}`)
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] }
  return body.choices?.[0]?.message?.content ?? ''
}

async function callAnthropic(llm: Llm, system: string, user: string): Promise<string> {
  const response = await fetch(`${(llm.baseUrl ?? 'https://api.anthropic.com').replace(/\/$/, '')}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': llm.apiKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: llm.model, max_tokens: 120, system, messages: [{ role: 'user', content: user }] }),
    signal: AbortSignal.timeout(LLM_TIMEOUT_MS),
  })
  if (!response.ok) throw new Error(`model answered ${response.status}`)
  const body = (await response.json()) as { content?: { type: string; text?: string }[] }
  return body.content?.find((part) => part.type === 'text')?.text ?? ''
}
