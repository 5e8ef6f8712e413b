import type { CallToolResult } from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { createEventProjector } from '../events/create-event-projector.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunHost, RunSegment } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-execution-context.ts'
import { settledResult, waitingResult } from './mcp-tool-result.ts'
import { toElicitationSchema, type ElicitationSchema } from './to-elicitation-schema.ts'

/** What finishing a waiting run over MCP needs: the run's tool and host, and a way to ask the user. */
export interface WaitingRunContext {
  tool: AnyTool
  runs: RunHost
  principal: string | null
  basePath: string
  /** Whether the client declared form elicitation. */
  canElicit: boolean
  elicit(request: ElicitRequestParams): Promise<ElicitResult>
  signal: AbortSignal
}

/** How many questions one call may ask before it hands the run over to HTTP (a tool that keeps suspending). */
const maxQuestions = 5
/** How many times a resume form is asked (in all) while its answers fail `resumeSchema`, in either generation. */
export const maxResumeAttempts = 3

const approvalSchema: ElicitationSchema = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', title: 'Approve', description: 'Run the tool with these arguments' },
    reason: { type: 'string', title: 'Reason', description: 'Why not (optional, when declining)' },
  },
  required: ['approved'],
}

async function ask(context: WaitingRunContext, request: ElicitRequestParams): Promise<ElicitResult | undefined> {
  try {
    return await context.elicit(request)
  } catch {
    // No answer (timeout, cancelled call, a client error): the run stays waiting for HTTP.
    return undefined
  }
}

/** Reads a step to its end; the step's execution stops if the MCP call is cancelled meanwhile. */
async function drain(segment: RunSegment, signal: AbortSignal): Promise<RunRecord> {
  const onAbort = () => segment.abort(new Error('The MCP request was cancelled'))
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    for await (const _ of segment.events);
    return await segment.settled
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/** What the user is shown of a payload: its display view, never the raw value a transform hides. */
export async function shown(tool: AnyTool, run: RunRecord, phase: 'input' | 'suspend'): Promise<unknown> {
  const project = createEventProjector(tool, 'display', { input: run.input })
  if (phase === 'input') {
    const event = await project({ type: 'tool-input-available', toolCallId: run.toolCallId, toolName: tool.id, input: run.input })
    return event?.type === 'tool-input-available' ? event.input : undefined
  }
  const event = await project({ type: 'data-tool-suspended', data: { runId: run.runId, toolCallId: run.toolCallId, suspendPayload: run.suspendPayload } })
  return event?.type === 'data-tool-suspended' ? event.data.suspendPayload : undefined
}

function titleOf(tool: AnyTool): string {
  const title = tool.mcp?.annotations?.title
  return typeof title === 'string' ? title : tool.id
}

function questionOf(tool: AnyTool, payload: unknown): string {
  if (typeof payload === 'string') return payload
  const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>
  const question = [fields.question, fields.message, fields.prompt].find((value) => typeof value === 'string') as string | undefined
  const details = payload === undefined ? '' : `\n\n${JSON.stringify(payload, null, 2)}`
  return `${question ?? `${titleOf(tool)} needs more input to continue.`}${details}`
}

/** The approval form for a run waiting for approval (what the user sees of its input is its display view). */
export async function approvalQuestion(tool: AnyTool, run: RunRecord): Promise<ElicitRequestParams> {
  const input = await shown(tool, run, 'input')
  return {
    message: `Allow ${titleOf(tool)} to run with these arguments?\n\n${JSON.stringify(input ?? null, null, 2)}`,
    requestedSchema: approvalSchema as unknown as Record<string, unknown>,
  }
}

/** The resume form of a suspended run (its `resumeSchema`), or `undefined` when a form cannot express it. */
export async function resumeQuestion(tool: AnyTool, run: RunRecord, problem = ''): Promise<ElicitRequestParams | undefined> {
  const requestedSchema = toElicitationSchema(tool.schemas.resume?.jsonSchema)
  if (!requestedSchema) return undefined
  const question = questionOf(tool, await shown(tool, run, 'suspend'))
  return { message: `${question}${problem}`, requestedSchema: requestedSchema as unknown as Record<string, unknown> }
}

/** What a run's host needs to act on an answer: the run's host and tool, the caller, the call's signal. */
export type AnswerContext = Pick<WaitingRunContext, 'tool' | 'runs' | 'principal' | 'signal'>

/**
 * Applies the answer to an approval form: approve or decline the run (the same compare-and-set
 * as the HTTP routes) and read the step to its end. `undefined` when the user cancelled.
 */
export async function answerApproval(context: AnswerContext, run: RunRecord, answer: ElicitResult): Promise<RunRecord | undefined> {
  if (answer.action === 'cancel') return undefined
  const caller = { principal: context.principal }
  if (answer.action === 'accept' && answer.content?.approved === true) {
    return drain(await context.runs.approve(run.runId, { ...caller, ...(run.approvalId ? { approvalId: run.approvalId } : {}) }), context.signal)
  }
  const reason = typeof answer.content?.reason === 'string' && answer.content.reason.trim() !== '' ? answer.content.reason : undefined
  return drain(await context.runs.decline(run.runId, { ...caller, ...(reason !== undefined ? { reason } : {}) }), context.signal)
}

/**
 * Applies the answer to a resume form: resume the run with it, or cancel the run when the form
 * was declined. An answer that fails the full `resumeSchema` (a form cannot carry every keyword)
 * leaves the run suspended and comes back as `{ problem }`, to ask again; `undefined` when the user
 * cancelled.
 */
export async function answerResume(context: AnswerContext, run: RunRecord, answer: ElicitResult): Promise<RunRecord | { problem: string } | undefined> {
  if (answer.action === 'cancel') return undefined
  if (answer.action === 'decline') return context.runs.cancel(run.runId, { principal: context.principal })
  try {
    return await drain(await context.runs.resume(run.runId, { principal: context.principal, resumeData: answer.content ?? {} }), context.signal)
  } catch (error) {
    if (!ToolrouteError.isInstance(error) || error.code !== 'RESUME_VALIDATION_FAILED') throw error
    return { problem: `\n\nThe last answer was not accepted: ${error.message}` }
  }
}

/** Approval by elicitation: approve, decline, or `undefined` when the user could not be asked. */
async function askApproval(context: WaitingRunContext, run: RunRecord): Promise<RunRecord | undefined> {
  const answer = await ask(context, await approvalQuestion(context.tool, run))
  return answer ? answerApproval(context, run, answer) : undefined
}

/** Resume by elicitation, asked again (up to three times) while the answers fail `resumeSchema`. */
async function askResume(context: WaitingRunContext, run: RunRecord): Promise<RunRecord | undefined> {
  let problem = ''
  for (let attempt = 0; attempt < maxResumeAttempts; attempt++) {
    const question = await resumeQuestion(context.tool, run, problem)
    if (!question) return undefined
    const answer = await ask(context, question)
    if (!answer) return undefined
    const next = await answerResume(context, run, answer)
    if (!next || !('problem' in next)) return next
    problem = next.problem
  }
  return undefined
}

/** Follows a background run until it settles (or the MCP call is cancelled). */
export async function followToEnd(context: Pick<WaitingRunContext, 'runs' | 'principal' | 'signal'>, run: RunRecord): Promise<RunRecord> {
  const caller = { principal: context.principal }
  for await (const _ of await context.runs.follow(run.runId, { ...caller, after: 0, signal: context.signal }));
  // A request its client dropped does no more I/O of its own (on Workers it would never settle): the run as last known.
  if (context.signal.aborted) return run
  return (await context.runs.get(run.runId, caller)).run
}

/**
 * The run of a plain `tools/call` whose request was cancelled (`notifications/cancelled`, or a
 * 2026-07-28 client that dropped the request): nobody will read its result, so it is cancelled
 * rather than left to run (a background attempt is aborted) or to wait for an answer. A task's run
 * is not: its `tasks/result` may be cancelled while the task goes on (`tasks/cancel` ends it).
 */
export async function cancelAbandoned(context: Pick<WaitingRunContext, 'runs' | 'principal' | 'signal'>, run: RunRecord | undefined): Promise<void> {
  if (!run || !context.signal.aborted) return
  try {
    await context.runs.cancel(run.runId, { principal: context.principal })
  } catch {
    // Settled meanwhile (RUN_STATE_CONFLICT), or its store is gone: nothing is left running.
  }
}

/**
 * Takes a stored run that waits (for approval, for input) or runs in the background to its end
 * within the MCP call: the user is asked through elicitation when the client supports it, and the
 * answers go through the run host, the same compare-and-set path as the HTTP routes, so the run
 * executes exactly once whichever side answers. When the user cannot be asked, the result names
 * the run and the HTTP routes that finish it.
 */
export async function finishWaitingRun(context: WaitingRunContext, run: RunRecord): Promise<CallToolResult> {
  let current = run
  for (let asked = 0; ; ) {
    if (current.status === 'running') {
      current = await followToEnd(context, current)
      if (current.status === 'running') return waitingResult(context.tool, current, context.basePath)
      continue
    }
    if (current.status !== 'approval-required' && current.status !== 'suspended') return settledResult(current)
    const next = context.canElicit && asked++ < maxQuestions
      ? current.status === 'approval-required'
        ? await askApproval(context, current)
        : await askResume(context, current)
      : undefined
    if (!next) return waitingResult(context.tool, current, context.basePath, current.status === 'suspended' ? await shown(context.tool, current, 'suspend') : undefined)
    current = next
  }
}
