import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { TrajectoryStep, Verdict } from '../../journeys/types.ts'
import type { JourneyRunRecord } from '../feature-list.ts'
import { xml } from './formats/junit.ts'
import { Client } from './remote.ts'
import { EXIT_GATE_FAILED, EXIT_PASS, optionLines, orList, parseCommandLine, TargetError, UsageError } from './usage.ts'

/** The usage's first line: a usage error's hint names the command from it. */
const JOURNEY_SYNOPSIS = 'agent-readiness journey <target> --intent ID [options]'

/** The usage, naming the curated intents and the assistant agents given (the registries', in their order). */
export function journeyUsage(intentIds: readonly string[], assistantAgentIds: readonly string[]): string {
  const intents = `the task: a curated intent id (GET /api/journey/intents): ${intentIds.join(', ')}`
  const assistants = orList(assistantAgentIds)
  const agents = `who does it (default deterministic, our own signed agent); ${assistants} present as that AI assistant's fetcher`
  return `${JOURNEY_SYNOPSIS}

  <target>               the domain the agent works on (example.com)
${optionLines('--intent ID', intents)}
${optionLines('--agent ID', agents)}
  --format F             text (default), json (the run: verdict, answer, insight, steps) or junit
  --server URL           run on a running agent-readiness service (AGENT_READINESS_KEY as the
                         bearer key) instead of in-process
  --allow-private        accept local and private targets (as SCANNER_ALLOW_PRIVATE=true)
  --static               no browser: app shells are read as served
  -h, --help             this help

The trajectory is printed live on stderr when it is a terminal; the result goes to stdout.
Exit codes: 0 the verdict is success, 1 failure or blocked, 2 a usage error or a run that could not
be made.`
}

/**
 * The usage over the registries (journeys/intents/index.ts, journeys/agents/assistants.ts), so a new intent or
 * assistant is listed without an edit here. Loaded only to print it: the judges bring the HTML parser with them.
 */
export async function registeredJourneyUsage(): Promise<string> {
  const [{ INTENTS }, { ASSISTANT_AGENTS }] = await Promise.all([
    import('../../journeys/intents/index.ts'),
    import('../../journeys/agents/assistants.ts'),
  ])
  return journeyUsage(
    INTENTS.map((intent) => intent.meta.id),
    ASSISTANT_AGENTS.map((agent) => agent.meta.id),
  )
}

const FORMATS = ['text', 'json', 'junit'] as const
type Format = (typeof FORMATS)[number]

interface JourneyArgs {
  target: string
  intent: string
  agent: string
  format: Format
  server?: string
  allowPrivate: boolean
  static: boolean
}

/** What a journey printed by the CLI says, in-process or from a server: the run record's fields that matter to CI. */
export interface JourneyReport {
  domain: string
  intent_id: string
  agent: { id: string; harness: string; model: string }
  identity: string
  verdict: Verdict
  agent_response: string | null
  insight: NonNullable<JourneyRunRecord['insight']>
  steps: TrajectoryStep[]
  content_digest: string | null
  trajectory_digest: string | null
}

export function parseJourneyArgs(args: string[]): JourneyArgs | null {
  const { values, positionals } = parseCommandLine(
    args,
    {
      intent: { type: 'string' },
      agent: { type: 'string', default: 'deterministic' },
      format: { type: 'string', default: 'text' },
      server: { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      static: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    JOURNEY_SYNOPSIS,
  )
  if (values.help) return null
  if (positionals.length !== 1) throw new UsageError('journey takes exactly one target (a domain)', JOURNEY_SYNOPSIS)
  if (!values.intent) throw new UsageError('--intent ID is required (see GET /api/journey/intents)', JOURNEY_SYNOPSIS)
  if (!FORMATS.includes(values.format as Format))
    throw new UsageError(`--format is one of ${FORMATS.join(', ')}`, JOURNEY_SYNOPSIS)
  if (values.server !== undefined && (!/^https?:\/\/[^/]/.test(values.server) || !URL.canParse(values.server))) {
    throw new UsageError('--server takes the http(s) URL of a service', JOURNEY_SYNOPSIS)
  }
  return {
    target: positionals[0]!,
    intent: values.intent,
    agent: values.agent,
    format: values.format as Format,
    server: values.server,
    allowPrivate: values['allow-private'],
    static: values.static,
  }
}

/** One line per step, as the trajectory goes. */
export function stepLine(step: TrajectoryStep): string {
  const status = step.type === 'tool' ? ` ${step.http_status ?? step.status}` : ''
  return `  ${step.id.padEnd(4)} ${step.type === 'tool' ? (step.tool ?? step.action) : 'says'}${status}  ${step.type === 'text' ? (step.text ?? step.label).split('\n')[0] : step.label}`
}

/** Runs the journey in this process, the way the service's worker does. */
async function runLocally(args: JourneyArgs, onStep: (step: TrajectoryStep) => void): Promise<JourneyReport> {
  const [
    { loadConfig },
    { createEngine },
    { availableAgents },
    { intentById },
    { intentPrompt },
    { runJourney },
    { normalizeInput },
    { ScanError },
  ] = await Promise.all([
    import('../../core/config.ts'),
    import('../engine.ts'),
    import('../../journeys/agents/index.ts'),
    import('../../journeys/intents/index.ts'),
    import('../../journeys/types.ts'),
    import('../../journeys/runner.ts'),
    import('../../core/engine/target.ts'),
    import('../../core/engine/scan-error.ts'),
  ])
  const config = loadConfig(args.allowPrivate ? { ...process.env, SCANNER_ALLOW_PRIVATE: 'true' } : process.env)
  const agents = availableAgents(config).filter((agent) => agent.meta.public)
  const agent = agents.find((candidate) => candidate.meta.id === args.agent)
  if (!agent)
    throw new UsageError(
      `--agent is one of ${agents.map((candidate) => candidate.meta.id).join(', ')}`,
      JOURNEY_SYNOPSIS,
    )
  const intent = intentById(args.intent)
  if (!intent) throw new UsageError(`"${args.intent}" is not a curated intent (see --help)`, JOURNEY_SYNOPSIS)
  let target: { domain: string; origin: string }
  try {
    // A local target keeps its scheme and port (`http://127.0.0.1:5160`), as a scan of it does.
    target = normalizeInput(args.target, { allowLocal: config.scanner.allowPrivate })
  } catch (error) {
    if (error instanceof ScanError) throw new TargetError(`cannot run a journey on ${args.target}: ${error.message}`)
    throw error
  }
  const { domain, origin } = target
  const engine = createEngine(config, args.static ? { browser: null } : {})
  try {
    const outcome = await runJourney({
      agent,
      intent,
      prompt: intentPrompt(intent.meta, domain),
      domain,
      origin,
      deps: engine,
      onStep,
    })
    return {
      domain,
      intent_id: intent.meta.id,
      agent: { id: agent.meta.id, harness: agent.meta.harness, model: agent.meta.model },
      identity: agent.meta.identity.id,
      verdict: outcome.verdict,
      agent_response: outcome.agent_response,
      // A compare needs the service (two linked runs); a single in-process run has none.
      insight: { ...outcome.insight, comparison: null },
      steps: outcome.steps,
      content_digest: outcome.content_digest,
      trajectory_digest: outcome.trajectory_digest,
    }
  } finally {
    await engine.browser?.close()
  }
}

/** Starts the run on a service and follows its stream: each `trajectory` frame as it comes, then the record. */
async function runRemotely(args: JourneyArgs, onStep: (step: TrajectoryStep) => void): Promise<JourneyReport> {
  const client = new Client(args.server!.replace(/\/+$/, ''), process.env.AGENT_READINESS_KEY || undefined)
  const created = await client.json<{ id: string; rate_limited?: true }>('POST', '/api/journey/runs', {
    intent: { id: args.intent },
    domain: args.target,
    agent: args.agent,
  })
  if (created.rate_limited)
    throw new TargetError(
      `${client.server} is capping runs of ${args.intent} on ${args.target}: try later, or with AGENT_READINESS_KEY`,
    )
  const response = await client.send('GET', `/api/journey/runs/${created.id}/stream`)
  for await (const { event, data } of response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())) {
    if (!data) continue
    if (event === 'trajectory') onStep((JSON.parse(data) as { step: TrajectoryStep }).step)
    if (event === 'error') {
      const failure = JSON.parse(data) as { code: string; message: string }
      throw new TargetError(`the journey ${created.id} failed: ${failure.code}: ${failure.message}`)
    }
    if (event === 'result') return JSON.parse(data) as JourneyReport
  }
  throw new TargetError(`${client.server} closed the stream of journey ${created.id} without a result`)
}

/**
 * The run as text. `trajectoryShown`: the steps were already printed live above, on the same terminal, so the
 * report counts them rather than printing the trajectory a second time.
 */
export function renderJourneyText(report: JourneyReport, { trajectoryShown = false } = {}): string {
  const tools = report.steps.filter((step) => step.type === 'tool').length
  const lines = [
    // Set apart from the live steps above it.
    ...(trajectoryShown ? [''] : []),
    `${report.intent_id} on ${report.domain} as ${report.agent.id} (${report.identity}): ${report.verdict.outcome.toUpperCase()}`,
    `  ${report.verdict.reason}`,
    ...(report.verdict.outcome === 'success' && report.agent_response
      ? ['', 'Answer', ...report.agent_response.split('\n').map((line) => `  ${line}`)]
      : []),
    ...(report.insight.comparison ? ['', report.insight.comparison.message] : []),
    ...(report.insight.related_checks.length > 0
      ? ['', `Checks that would help: ${report.insight.related_checks.join(', ')}`]
      : []),
    '',
    `${report.steps.length} steps (${tools} tool calls)${trajectoryShown ? ', above' : ''}`,
    ...(trajectoryShown ? [] : report.steps.map(stepLine)),
  ]
  return `${lines.join('\n')}\n`
}

export function renderJourneyJunit(report: JourneyReport): string {
  const failed = report.verdict.outcome !== 'success'
  const name = `${report.intent_id} on ${report.domain} as ${report.agent.id}`
  const trajectory = report.steps.map(stepLine).join('\n')
  const body = failed
    ? `      <failure message="${xml(`${report.verdict.outcome}: ${report.verdict.reason}`)}">${xml(`${trajectory}\nChecks that would help: ${report.insight.related_checks.join(', ')}`)}</failure>\n`
    : `      <system-out>${xml(`${report.agent_response ?? ''}\n\n${trajectory}`)}</system-out>\n`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-readiness journey" tests="1" failures="${failed ? 1 : 0}">`,
    `  <testsuite name="${xml(`journey ${report.domain}`)}" tests="1" failures="${failed ? 1 : 0}">`,
    `    <testcase classname="${xml(`journey.${report.intent_id}`)}" name="${xml(name)}">`,
    body.trimEnd(),
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}

/** `agent-readiness journey`: runs one journey, prints it, and exits 1 unless the verdict is success. */
export async function journeyCommand(argv: string[]): Promise<number> {
  const args = parseJourneyArgs(argv)
  if (!args) {
    console.log(await registeredJourneyUsage())
    return EXIT_PASS
  }
  // The trajectory live, for a person watching; CI logs get the report alone.
  const live = process.stderr.isTTY === true
  const onStep = (step: TrajectoryStep) => {
    if (live) process.stderr.write(`${stepLine(step)}\n`)
  }
  const report = args.server ? await runRemotely(args, onStep) : await runLocally(args, onStep)
  // Printed once: a text report on the terminal that watched the steps go by does not repeat them.
  const trajectoryShown = live && process.stdout.isTTY === true
  const output =
    args.format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : args.format === 'junit'
        ? renderJourneyJunit(report)
        : renderJourneyText(report, { trajectoryShown })
  process.stdout.write(output)
  return report.verdict.outcome === 'success' ? EXIT_PASS : EXIT_GATE_FAILED
}
