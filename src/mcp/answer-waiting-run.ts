import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunHost, RunSegment } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'

/** What a run's host needs to act on an answer: the run's host and tool, the caller, the call's signal. */
export interface AnswerContext {
  tool: AnyTool
  runs: RunHost
  principal: string | null
  signal: AbortSignal
}

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

