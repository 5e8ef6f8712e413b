// Tools for the durable-run tests (workerd only: they count executions in a Durable Object).
import { env } from 'cloudflare:workers'
import { createTool } from 'toolroute'
import { z } from 'zod'

interface CounterStub {
  increment(): Promise<number>
  count(): Promise<number>
}

/** The execution counter named `key` (test/workers/fixture-objects.ts). */
export function counter(key: string): CounterStub {
  const namespace = (env as unknown as { EXECUTION_COUNTER: DurableObjectNamespace }).EXECUTION_COUNTER
  return namespace.get(namespace.idFromName(key)) as unknown as CounterStub
}

/** Waits until the test has opened gate `key` `step` times (it increments `<key>:gate`). */
async function gate(key: string, step: number, signal: AbortSignal): Promise<void> {
  while ((await counter(`${key}:gate`).count()) < step) {
    signal.throwIfAborted()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  // An abort that came while the gate opened still stops the tool (as a well-behaved tool does).
  signal.throwIfAborted()
}

/** Needs approval; counts each execution. */
export const countedApproval = createTool({
  id: 'counted-approval',
  description: 'Needs approval, then counts its execution',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ executions: z.number() }),
  requireApproval: true,
  execute: async ({ key }) => ({ executions: await counter(key).increment() }),
})

/** Suspends once; counts each resumed execution. */
export const countedSuspend = createTool({
  id: 'counted-suspend',
  description: 'Suspends, then counts its resumed execution',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ answer: z.string(), executions: z.number() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ answer: z.string().min(1) }),
  execute: async ({ key }, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ question: 'Go on?' })
    return { answer: resumeData.answer, executions: await counter(key).increment() }
  },
})

/**
 * Several suspend/resume rounds in one run: each round's answers ride in its suspend payload,
 * so the tool proves it got `agent.suspendPayload` and `agent.resumeData` back on every resume.
 */
export const multiRound = createTool({
  id: 'multi-round',
  description: 'Asks `rounds` questions, one suspension each',
  inputSchema: z.object({ rounds: z.number().int().min(1).max(5) }),
  outputSchema: z.object({ answers: z.array(z.string()), agentSawResume: z.boolean() }),
  suspendSchema: z.object({ round: z.number(), answers: z.array(z.string()) }),
  resumeSchema: z.object({ answer: z.string().regex(/^[a-z]+$/) }),
  execute: async ({ rounds }, { agent, resumeData, suspendPayload, suspend }) => {
    const previous = agent?.suspendPayload
    const answers = previous && agent?.resumeData ? [...previous.answers, agent.resumeData.answer] : []
    const agentSawResume = agent?.resumeData === resumeData && agent?.suspendPayload === suspendPayload
    if (answers.length < rounds) return suspend({ round: answers.length + 1, answers })
    return { answers, agentSawResume }
  },
})

/** Background: fails its first `failures` attempts (counted under `key`), then succeeds. */
export const flakyBackground = createTool({
  id: 'flaky-background',
  description: 'Fails a given number of times, then succeeds',
  inputSchema: z.object({ key: z.string(), failures: z.number().int().min(0) }),
  outputSchema: z.object({ attempt: z.number() }),
  background: { enabled: true, timeoutMs: 10_000, maxRetries: 2 },
  execute: async ({ key, failures }) => {
    const attempt = await counter(key).increment()
    if (attempt <= failures) throw new Error(`attempt ${attempt} failed`)
    return { attempt }
  },
})

/** Background with a tiny `timeoutMs`: every attempt is aborted, and counted. */
export const timeoutBackground = createTool({
  id: 'timeout-background',
  description: 'Takes far longer than its timeout',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ done: z.boolean() }),
  background: { enabled: true, timeoutMs: 50, maxRetries: 1 },
  execute: async ({ key }, { abortSignal }) => {
    await counter(key).increment()
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 20_000)
      abortSignal.addEventListener('abort', () => (clearTimeout(timer), reject(abortSignal.reason)), { once: true })
    })
    return { done: true }
  },
})

/** Background, driven step by step by the test: logs `step i`, then waits for gate i. */
export const gatedBackground = createTool({
  id: 'gated-background',
  description: 'Logs each step, waiting for the test to open its gate',
  inputSchema: z.object({ key: z.string(), steps: z.number().int().min(0).max(20) }),
  outputSchema: z.object({ steps: z.number() }),
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 0 },
  execute: async ({ key, steps }, { observe, abortSignal }) => {
    for (let step = 1; step <= steps; step++) {
      observe.log('info', `step ${step}`)
      await gate(key, step, abortSignal)
    }
    await counter(key).increment()
    return { steps }
  },
})

/** Approval, then background: the approve answers `running` at once. */
export const approvedBackground = createTool({
  id: 'approved-background',
  description: 'Needs approval, then runs in the background',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ executions: z.number() }),
  requireApproval: true,
  background: { enabled: true, timeoutMs: 10_000, maxRetries: 0 },
  execute: async ({ key }) => ({ executions: await counter(key).increment() }),
})

/** Background, then suspends for an answer (a 2026-07-28 task that waits for input); counts each resumed execution. */
export const suspendingBackground = createTool({
  id: 'suspending-background',
  description: 'Runs in the background, asks a question, then counts its resumed execution',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ answer: z.string(), executions: z.number() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ answer: z.string().regex(/^[a-z]+$/) }),
  background: { enabled: true, timeoutMs: 10_000, maxRetries: 0 },
  execute: async ({ key }, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ question: 'Which colour?' })
    return { answer: resumeData.answer, executions: await counter(key).increment() }
  },
})

/** Background, and asks two questions at once mid-execute (a task's requester answers them one at a time); counts its executions. */
export const askingBackground = createTool({
  id: 'asking-background',
  description: 'Runs in the background and asks for a colour and a size at once',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ colour: z.string(), size: z.string(), executions: z.number() }),
  background: { enabled: true, timeoutMs: 30_000, maxRetries: 0 },
  execute: async ({ key }, { mcp }) => {
    if (!mcp) throw new Error('asked without MCP')
    const form = (field: string) => ({ message: `Which ${field}?`, requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] } })
    const [colour, size] = await Promise.all([mcp.elicitation.sendRequest(form('colour'), { key: 'colour' }), mcp.elicitation.sendRequest(form('size'))])
    return { colour: String(colour.content?.colour), size: String(size.action === 'accept' ? size.content?.size : size.action), executions: await counter(key).increment() }
  },
})

/** Background, and asks for a name before it is a task (`mcp.askBeforeTask`); counts its executions. */
export const askFirstBackground = createTool({
  id: 'ask-first-background',
  description: 'Asks for a name in the call, then greets from a task',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ greeting: z.string(), executions: z.number() }),
  background: { enabled: true, timeoutMs: 30_000, maxRetries: 0 },
  mcp: { taskSupport: 'required', askBeforeTask: true },
  execute: async ({ key }, { mcp }) => {
    const answer = await mcp!.elicitation.sendRequest({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { key: 'user_name' })
    return { greeting: `Hello, ${String(answer.content?.name)}!`, executions: await counter(key).increment() }
  },
})

/** Background, and its calls must be tasks under 2026-07-28 (`mcp.taskSupport: 'required'`). */
export const requiredTaskBackground = createTool({
  id: 'required-task-background',
  description: 'Runs in the background; 2026-07-28 clients must call it as a task',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ executions: z.number() }),
  background: { enabled: true, timeoutMs: 10_000, maxRetries: 0 },
  mcp: { taskSupport: 'required' },
  execute: async ({ key }) => ({ executions: await counter(key).increment() }),
})

/** Needs approval, then waits at gate 1 (in the foreground: the approve request streams it). */
export const gatedApproval = createTool({
  id: 'gated-approval',
  description: 'Needs approval, then waits for the test to open its gate',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ executions: z.number() }),
  requireApproval: true,
  execute: async ({ key }, { observe, abortSignal }) => {
    observe.log('info', 'waiting at the gate')
    await gate(key, 1, abortSignal)
    return { executions: await counter(key).increment() }
  },
})

/** Approval with transforms: the transcript and display never show the secret. */
export const approvalTransform = createTool({
  id: 'approval-transform',
  description: 'Needs approval; its transcript hides the secret',
  inputSchema: z.object({ label: z.string(), secret: z.string() }),
  outputSchema: z.object({ label: z.string(), secret: z.string() }),
  requireApproval: true,
  execute: async ({ label, secret }) => ({ label, secret }),
  transform: {
    display: {
      input: ({ input }) => ({ label: input?.label }),
      output: ({ output }) => (output ? { label: output.label } : undefined),
    },
    transcript: {
      input: ({ input }) => ({ label: input?.label, secret: '[redacted]' }),
      output: ({ output }) => (output ? { label: output.label } : undefined),
    },
  },
})

/** Counts its start, then asks two questions mid-execute (MCP elicitation), and counts its end. */
export const countedQuestions = createTool({
  id: 'counted-questions',
  description: 'Asks a name and a colour mid-call, counting how often it started',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ name: z.string(), colour: z.string(), starts: z.number() }),
  execute: async ({ key }, { mcp }) => {
    const starts = await counter(`${key}:started`).increment()
    const ask = async (field: string) => {
      const answer = await mcp!.elicitation.sendRequest({
        message: `Your ${field}?`,
        requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
      })
      return answer.action === 'accept' ? String(answer.content?.[field]) : `(${answer.action})`
    }
    const name = await ask('name')
    const colour = await ask('colour')
    return { name, colour, starts }
  },
})

/** Cannot work without sampling (mcp.requiredClientCapabilities): counts each execution under `key`. */
export const needsSampling = createTool({
  id: 'needs-sampling',
  description: 'Needs the client to declare sampling',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ executions: z.number() }),
  mcp: { requiredClientCapabilities: { sampling: {} } },
  execute: async ({ key }) => ({ executions: await counter(key).increment() }),
})

/** Logs once at each of observe.log's levels, then answers (MCP logging tests). */
export const loggedSteps = createTool({
  id: 'logged-steps',
  description: 'Logs at every level',
  inputSchema: z.object({}),
  outputSchema: z.object({ logged: z.number() }),
  execute: async (_input, { observe }) => {
    const levels = ['debug', 'info', 'warn', 'error', 'fatal'] as const
    for (const level of levels) observe.log(level, `step at ${level}`, { level })
    return { logged: levels.length }
  },
})

/** Asks one question mid-execute under a key it names (`user_name`), not toolroute's default `answer`. */
export const keyedQuestion = createTool({
  id: 'keyed-question',
  description: 'Asks a name under the inputRequests key user_name',
  inputSchema: z.object({}),
  outputSchema: z.object({ greeting: z.string() }),
  execute: async (_input, { mcp }) => {
    const question = { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }
    const answer = await mcp!.elicitation.sendRequest(question, { key: 'user_name' })
    return { greeting: answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : `(${answer.action})` }
  },
})

/** Stateless: counts each execution under `key`; fails after counting when `fail` is set; waits at gate 1 when `gated`. */
export const countedCall = createTool({
  id: 'counted-call',
  description: 'Counts its executions (idempotency tests)',
  inputSchema: z.object({ key: z.string(), fail: z.boolean().optional(), gated: z.boolean().optional() }),
  outputSchema: z.object({ executions: z.number() }),
  execute: async ({ key, fail, gated }, { abortSignal }) => {
    const executions = await counter(key).increment()
    if (gated) await gate(key, 1, abortSignal)
    if (fail) throw new Error(`execution ${executions} failed`)
    return { executions }
  },
})

/**
 * Background with one retry: logs, then waits for the test to open the gate of its attempt
 * (`<key>:gate:<attempt>`), then counts its completion under `key`. One gate per attempt: an
 * attempt whose object was aborted under the test runner may live on in the isolate, and must
 * not pass the gate opened for its retry.
 */
export const gatedRetryBackground = createTool({
  id: 'gated-retry-background',
  description: 'Waits for the test, retried once if its attempt is lost',
  inputSchema: z.object({ key: z.string() }),
  outputSchema: z.object({ completions: z.number() }),
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 1 },
  execute: async ({ key }, { observe, abortSignal }) => {
    observe.log('info', 'attempt started')
    const attempt = await counter(`${key}:started`).increment()
    const deadline = Date.now() + 20_000
    while ((await counter(`${key}:gate:${attempt}`).count()) < 1) {
      abortSignal.throwIfAborted()
      if (Date.now() > deadline) throw new Error(`attempt ${attempt} was never let through`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    return { completions: await counter(key).increment() }
  },
})

/**
 * Needs approval; its request context has a codec (an ISO string the tool sees as a `Date`) and a
 * transform. What `execute` reports is what it received after the approval, in another process.
 */
export const contextCodecApproval = createTool({
  id: 'context-codec-approval',
  description: 'Needs approval, then reports the request context it sees',
  inputSchema: z.object({}),
  requestContextSchema: z.object({
    since: z.codec(z.iso.datetime(), z.date(), { decode: (text) => new Date(text), encode: (date) => date.toISOString() }),
    doubled: z.number().transform((n) => n * 2),
  }),
  outputSchema: z.object({ sinceIsDate: z.boolean(), since: z.string(), doubled: z.number() }),
  requireApproval: true,
  execute: async (_input, { requestContext }) => {
    const since = requestContext.get('since') as unknown
    return { sinceIsDate: since instanceof Date, since: since instanceof Date ? since.toISOString() : String(since), doubled: requestContext.get('doubled') as number }
  },
})

/**
 * Background, writes `events` values of `bytes` padding each, as fast as it can (a tool gone
 * wild); it stops when its abortSignal aborts, counting that under `<key>:aborted`.
 */
export const floodBackground = createTool({
  id: 'flood-background',
  description: 'Writes many large values, as fast as it can',
  inputSchema: z.object({ key: z.string(), events: z.number().int().min(0), bytes: z.number().int().min(0) }),
  background: { enabled: true, timeoutMs: 120_000, maxRetries: 0 },
  execute: async ({ key, events, bytes }, { writer, abortSignal }) => {
    const pad = 'x'.repeat(bytes)
    for (let index = 0; index < events; index++) {
      if (abortSignal.aborted) {
        await counter(`${key}:aborted`).increment()
        throw abortSignal.reason
      }
      await writer.write({ index, pad })
      // A turn now and then, as a tool doing I/O would give: its writes are stored as they come.
      if (index % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 0))
    }
    return { written: events }
  },
})

/** Needs approval, then writes `count` values within one turn of its object, and returns. */
export const burstApproval = createTool({
  id: 'burst-approval',
  description: 'Needs approval, then writes many values at once',
  inputSchema: z.object({ count: z.number().int().min(0).max(1000) }),
  requireApproval: true,
  execute: async ({ count }, { writer }) => {
    for (let index = 0; index < count; index++) void writer.write({ index })
    return { count }
  },
})

/** The limits of the LIMITED_RUNS objects (test/workers/worker.ts), small so a test reaches them at once. */
/** Background with retries: counts each attempt under `<key>:attempts`, then floods its log (a limit is no transient failure). */
export const retryingFlood = createTool({
  id: 'retrying-flood',
  description: 'Floods its log on every attempt',
  inputSchema: z.object({ key: z.string(), events: z.number().int().min(0) }),
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 2 },
  execute: async ({ key, events }, { writer, abortSignal }) => {
    await counter(`${key}:attempts`).increment()
    for (let index = 0; index < events && !abortSignal.aborted; index++) await writer.write({ index })
    abortSignal.throwIfAborted()
    return { written: events }
  },
})

const cycle = () => {
  const value: Record<string, unknown> = { name: 'loop' }
  value.self = value
  return value
}
/** What `odd-output` returns for each `kind`: no JSON, too large to keep, nothing, or a plain value. */
const oddOutputs = {
  bigint: () => ({ n: 10n }),
  cycle,
  tojson: () => ({ toJSON: () => { throw new Error('toJSON refused') } }),
  huge: () => ({ text: 'x'.repeat(4_500_000) }),
  void: () => undefined,
  viewcycle: () => ({ viewCycle: true }),
  plain: () => ({ ok: true }),
}
/** Counts each execution under `key`, then returns an odd output (issue 45: a key settles whatever the tool returned). */
export const oddOutput = createTool({
  id: 'odd-output',
  description: 'Returns an output that is not JSON, too large to keep, or nothing',
  inputSchema: z.object({ key: z.string(), kind: z.enum(['bigint', 'cycle', 'tojson', 'huge', 'void', 'viewcycle', 'plain']) }),
  execute: async ({ key, kind }) => {
    await counter(key).increment()
    return oddOutputs[kind]() as never
  },
  transform: {
    display: { output: ({ output }) => ((output as unknown as { viewCycle?: boolean } | null)?.viewCycle ? cycle() : output) },
    transcript: { output: () => cycle(), input: ({ input }) => input },
  },
})

/** Background with retries whose output each event can hold but the run's record (output and model output) cannot. */
export const hugeBackground = createTool({
  id: 'huge-background',
  description: 'Returns an output too large to keep in its run',
  inputSchema: z.object({ key: z.string() }),
  background: { enabled: true, timeoutMs: 60_000, maxRetries: 2 },
  execute: async ({ key }) => {
    await counter(key).increment()
    return { text: 'x'.repeat(1_500_000) }
  },
})

/** Needs approval, then returns a BigInt (no JSON); counts each execution. */
export const oddApproval = createTool({
  id: 'odd-approval',
  description: 'Approved, returns what is no JSON',
  inputSchema: z.object({ key: z.string() }),
  requireApproval: true,
  execute: async ({ key }) => ({ n: BigInt(await counter(key).increment()) }) as never,
})

/** What `odd-throw` throws for each `kind`: no Error, with or without a message; its hook throws what no `toString` can print. */
const oddThrows = {
  withMessage: () => ({ message: 'card declined', code: 'E42', detail: { secret: 'sk_live_hidden' } }),
  noMessage: () => ({ code: 'E42', detail: { secret: 'sk_live_hidden' } }),
  number: () => 42,
}
const unprintable = () => ({ n: 1n, toString: () => { throw new Error('no toString') } })
export const oddThrow = createTool({
  id: 'odd-throw',
  description: 'Throws a value that is no Error; its hooks throw what cannot be printed',
  inputSchema: z.object({ kind: z.enum(['withMessage', 'noMessage', 'number', 'none']) }),
  onInputAvailable: () => {
    throw unprintable()
  },
  onOutput: () => {
    throw unprintable()
  },
  execute: async ({ kind }) => {
    if (kind === 'none') return { ok: true }
    throw oddThrows[kind]()
  },
})

export const limitedRunLimits = { maxEvents: 60, maxEventBytes: 48 * 1024 }

export const runFixtureTools = [hugeBackground, oddApproval, oddThrow, oddOutput, retryingFlood, floodBackground, burstApproval, contextCodecApproval, countedQuestions, keyedQuestion, loggedSteps, needsSampling, countedCall, gatedRetryBackground, countedApproval, countedSuspend, multiRound, flakyBackground, timeoutBackground, gatedBackground, approvedBackground, approvalTransform, gatedApproval, suspendingBackground, requiredTaskBackground, askingBackground, askFirstBackground]
