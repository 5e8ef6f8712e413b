import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, MissingRequiredClientCapabilityError, type CallToolResult, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { newCallIds, startCall, type CallIds } from '../runtime/start-call.ts'
import { traceparentOf } from '../protocol/traceparent.ts'
import { runKeeper } from '../runs/run-keeper.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { pendingQuestions } from '../runs/run-questions.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { mcpToolName } from '../protocol/mcp-tool-name.ts'
import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import { toolOfRun } from '../manifest/load-tool.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { ParkedCalls, type CallTurn } from './parked-calls.ts'
import { createProgressSender } from './create-progress-sender.ts'
import { createTaskResult, declaresTasks } from './serve-modern-tasks.ts'
import { createMcpLogSender } from './mcp-logging.ts'
import { answerPendingQuestions } from './answer-pending-questions.ts'
import { answerWaitingRun, type AnswerContext } from './answer-waiting-run.ts'
import { followToEnd } from './follow-to-end.ts'
import { approvalQuestion, maxResumeAttempts, resumeQuestion } from './waiting-run-questions.ts'
import { answersForms } from './answers-forms.ts'
import { readCaller } from './mcp-caller.ts'
import { tapRunEvents } from './tap-run-events.ts'
import { errorResult, settledResult, waitingResult } from './mcp-tool-result.ts'
import { failureResult, mcpFirstStep } from './mcp-first-step.ts'

/** Where a call's progress and logs go: the request now waiting on it (its first, then each retry). */
interface ProgressSink {
  logger: string
  send?: (event: ToolEvent) => void
  log?: (event: ToolEvent) => void
}

function attach(sink: ProgressSink, ctx: ServerContext): void {
  const token = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken
  sink.send = token !== undefined ? createProgressSender((notification) => ctx.mcpReq.notify(notification), token) : undefined
  sink.log = createMcpLogSender(sink.logger, (message) => ctx.mcpReq.log(message.level, message.data, message.logger))
}

/** The key of toolroute's questions in an `input_required` result (a tool may name its own: `sendRequest(q, { key })`). */
const answerKey = 'answer'

/** What a sealed `requestState` names: the durable run a question belongs to, or a parked call's question (and its key). */
export type QuestionState = ({ runId: string; asked?: number } | { questionId: string; key?: string }) & { callKey?: string }

/** What the one tools/call handler needs beyond a server's deps (the 2025 server builds them too). */
export interface McpCallDeps extends McpServerDeps {
  requestState: RequestStateCodec<QuestionState>
  /** Calls waiting, mid-`execute`, for the answer to their question. */
  parked: ParkedCalls<McpCallResult>
  /** Keeps a parked call alive past its response (`waitUntil`). */
  defer: (work: Promise<unknown>) => void
  /** Where this call runs when its host routes by it (a Durable Object per call): sealed into each question's state. */
  callKey?: string
  /** Whether the client can answer a form (default: its 2026-07-28 envelope says; a 2025 server knows from `initialize`). */
  answersForms?: (ctx: ServerContext) => boolean
}

export type McpCallResult = CallToolResult | InputRequiredResult | ReturnType<typeof createTaskResult>

/**
 * `tools/call` in every MCP version (a 2025 task-augmented one is `callMcpTask`'s). A run waiting for
 * a person, or a question asked mid-`execute`, is an `input_required` result whose sealed
 * `requestState` names the run or the parked call; the retry's answer (a 2025 connection's comes
 * through the SDK's `elicitation/create` shim) goes to that run or call, so the tool runs once.
 */
export async function callMcpTool(deps: McpCallDeps, tool: AnyTool, params: { arguments?: Record<string, unknown>; _meta?: { [key: string]: unknown } }, ctx: ServerContext): Promise<McpCallResult> {
  const declared = (ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] ?? {}) as Record<string, unknown>
  const missing = Object.entries(tool.mcp?.requiredClientCapabilities ?? {}).filter(([name]) => declared[name] === undefined)
  if (missing.length > 0) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: Object.fromEntries(missing) })
  const caller = readCaller(ctx.http?.req?.headers)
  const sink: ProgressSink = { logger: mcpToolName(tool.id) }
  attach(sink, ctx)
  let host: RunHost | undefined
  // What later steps stream (a followed background run, an answered approval) is progress and logs too.
  const runs = () => (host ??= tapRunEvents(deps.runs(), (event) => (sink.send?.(event), sink.log?.(event))))
  const answers: AnswerContext = { tool, get runs() { return runs() }, principal: caller.principal, signal: ctx.mcpReq.signal }

  // Verified by the codec's `verify` before this handler runs.
  const state = ctx.mcpReq.requestState<QuestionState>()
  if (state && 'questionId' in state) {
    const next = deps.parked.answer(state.questionId, answerOf(ctx, state.key))
    if (!next) {
      const message = `The call of ${tool.id} that asked this question is no longer waiting (it timed out, or ran on another instance); call the tool again`
      return errorResult(new ToolrouteError('EXECUTION_FAILED', message))
    }
    attach(next.shared as ProgressSink, ctx)
    return turnResult(deps, ctx, await ParkedCalls.turnFor(next, ctx.mcpReq.signal))
  }
  if (state) {
    try {
      const { run } = await runs().get(state.runId, { principal: caller.principal })
      if (run.toolId !== tool.id) throw new ToolrouteError('RUN_NOT_FOUND', `Run ${state.runId} not found`)
      // The answer to a running run's first question (`mcp.askBeforeTask`): the run goes on as a task.
      if (run.status === 'running' && run.background && declaresTasks(ctx.mcpReq.envelope)) {
        const answered = await answerPendingQuestions(runs(), run, caller.principal, (key) => readAnswer(ctx, key))
        // Settled meanwhile, or answered: the task says how.
        const current = answered === 'answered' ? (await runs().get(run.runId, { principal: caller.principal })).run : run
        return createTaskResult(current, deps.basePath)
      }
      if (run.status !== 'approval-required' && run.status !== 'suspended') return await settle(deps, ctx, answers, run)
      // The retry answering is a request of its own: its step's span goes under its `_meta.traceparent` (SPEC §17).
      const next = await answerWaitingRun({ ...answers, traceparent: traceparentOf(params._meta) }, run, answerOf(ctx))
      // Asked again while the answers fail resumeSchema, up to the bound; then the run waits for HTTP.
      const asked = state.asked ?? 1
      if (next && 'problem' in next) return asked < maxResumeAttempts ? ask(deps, ctx, run, next.problem, asked + 1) : waiting(deps, run)
      return next ? await settle(deps, ctx, answers, next) : waiting(deps, run)
    } catch (error) {
      return failureResult(error, { runId: state.runId, toolCallId: '' })
    }
  }

  // The call's span (SPEC §17), under the `_meta` traceparent, ended with this request's result.
  const span = deps.tracer?.(tool.id, { traceparent: traceparentOf(params._meta) })
  let ids: CallIds | undefined
  const ended = (result: McpCallResult) => (span?.end(ids, (result as CallToolResult).isError ? 'tool_error' : undefined), result)
  const call = caller.error ? { ok: false as const, error: new ToolrouteError(caller.error.code, caller.error.message) } : startCall(tool, caller.requestContext)
  if (!call.ok) return ended(errorResult(call.error))
  const parked = deps.parked.start(async (ask, signal) => {
    const running = call.run({
      source: { input: params.arguments ?? {} },
      ids: (ids = newCallIds(undefined, traceparentOf(params._meta), span?.ids)),
      // A task's requester answers its mid-execute questions with tasks/update, if it can answer a form.
      keeper: runKeeper({ tool, runs, storeRuns: deps.storeRuns, principal: caller.principal, sentRequestContext: call.sentRequestContext, askable: isBackgroundTool(tool) && declaresTasks(ctx.mcpReq.envelope) && formsOf(deps, ctx) }),
      tap: (event) => (sink.send?.(event), sink.log?.(event)),
      extras: {
        emitTransient: (event) => sink.send?.(event),
        signal,
        // The question is this call's `input_required` result, the execution parked for the retry's answer.
        mcp: { elicitation: { sendRequest: formsOf(deps, ctx) ? ask : cannotAsk }, extra: ctx as unknown as Record<string, unknown> },
        trace: span?.trace,
      },
    })
    return (await mcpFirstStep(running, (run) => settle(deps, ctx, answers, run))) as McpCallResult
  }, sink)
  // A cancel before the call asks stops it; once it waits, only the retry (or the wait's timeout) decides.
  const turn = await ParkedCalls.turnFor(parked, ctx.mcpReq.signal)
  if (turn.kind === 'asked') deps.defer(parked.execution)
  return ended(await turnResult(deps, ctx, turn))
}

const formsOf = (deps: McpCallDeps, ctx: ServerContext): boolean => (deps.answersForms ? deps.answersForms(ctx) : answersForms(ctx.mcpReq.envelope))

const cannotAsk = (): Promise<never> => Promise.reject(new Error('The MCP client declared no form elicitation: it cannot answer questions'))

function readAnswer(ctx: ServerContext, key: string): ElicitResult | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key)
  if (view.kind !== 'elicit') return undefined
  return view.action === 'accept' ? view.content && { action: 'accept', content: view.content } : { action: view.action }
}

/** No answer counts as cancel. */
const answerOf = (ctx: ServerContext, key = answerKey): ElicitResult => readAnswer(ctx, key) ?? { action: 'cancel' }

const lookEveryMs = 50

/** Polls a running run until it asks its first question (`mcp.askBeforeTask`; maybe from another process) or stops. */
async function firstTurn(runs: RunHost, run: RunRecord, principal: string | null, signal: AbortSignal): Promise<RunRecord> {
  let current = run
  while (current.status === 'running' && Object.keys(pendingQuestions(current)).length === 0 && !signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, lookEveryMs))
    current = (await runs.get(run.runId, { principal })).run
  }
  return current
}

/** A parked call's turn as this request's result: its result, or its question as `input_required`. */
async function turnResult(deps: McpCallDeps, ctx: ServerContext, turn: CallTurn<McpCallResult>): Promise<McpCallResult> {
  if (turn.kind === 'done') return turn.value
  if (turn.kind === 'failed') return failureResult(turn.error, { runId: '', toolCallId: '' })
  return questionsResult(deps, ctx, { [turn.key ?? answerKey]: turn.question }, { questionId: turn.questionId, ...(turn.key ? { key: turn.key } : {}) })
}

/** Questions as this request's `input_required` result, their `requestState` sealed with where the call runs (`callKey`). */
async function questionsResult(deps: McpCallDeps, ctx: ServerContext, questions: Record<string, unknown>, state: QuestionState): Promise<InputRequiredResult> {
  return inputRequired({
    inputRequests: Object.fromEntries(Object.entries(questions).map(([key, question]) => [key, inputRequired.elicit(question as Parameters<typeof inputRequired.elicit>[0])])),
    requestState: await deps.requestState.mint({ ...state, ...(deps.callKey ? { callKey: deps.callKey } : {}) }, ctx),
  })
}

/** A run after a step as this call's result: its result, its question, a task, or where it waits. */
async function settle(deps: McpCallDeps, ctx: ServerContext, answers: AnswerContext, run: RunRecord): Promise<McpCallResult> {
  // A background run is a task for a client of the tasks extension: answered at once, driven with tasks/*.
  if (run.background && run.status !== 'completed' && declaresTasks(ctx.mcpReq.envelope)) {
    if (run.status !== 'running' || !run.askable || !answers.tool.mcp?.askBeforeTask) return createTaskResult(run, deps.basePath)
    // A tool that gathers its input first: its first question is this call's, its answer's retry the task.
    const turn = await firstTurn(answers.runs, run, answers.principal, ctx.mcpReq.signal)
    if (turn.status !== 'running') return settle(deps, ctx, answers, turn)
    const pending = pendingQuestions(turn)
    if (Object.keys(pending).length === 0) return createTaskResult(turn, deps.basePath)
    return questionsResult(deps, ctx, pending, { runId: turn.runId })
  }
  let current = run
  if (current.status === 'running') {
    try {
      current = await followToEnd(answers, current)
    } finally {
      // The client dropped the request: nobody is left to read the run. Kept alive past the request; one
      // settled meanwhile (RUN_STATE_CONFLICT), or whose store is gone, leaves nothing running.
      if (ctx.mcpReq.signal.aborted) deps.defer(answers.runs.cancel(current.runId, { principal: answers.principal }).catch(() => {}))
    }
    if (current.status === 'running') return waiting(deps, current)
  }
  if (current.status === 'approval-required' || current.status === 'suspended') return ask(deps, ctx, current)
  return settledResult(current)
}

/** The run's question as `input_required`, or the HTTP routes when no form can ask it or the client cannot answer one. */
async function ask(deps: McpCallDeps, ctx: ServerContext, run: RunRecord, problem = '', asked = 1): Promise<McpCallResult> {
  if (!formsOf(deps, ctx)) return waiting(deps, run)
  const tool = await toolOfRun(deps.tools, run)
  const question = run.status === 'approval-required' ? await approvalQuestion(tool, run) : await resumeQuestion(tool, run, problem)
  if (!question) return waiting(deps, run)
  return questionsResult(deps, ctx, { [answerKey]: question }, { runId: run.runId, ...(asked > 1 ? { asked } : {}) })
}

async function waiting(deps: McpCallDeps, run: RunRecord): Promise<CallToolResult> {
  return waitingResult(await toolOfRun(deps.tools, run), run, deps.basePath)
}
