import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunCaller, RunHost, RunSegment } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'

/** What acting on an answer needs: the run's host and tool, the caller (with the `traceparent` of a request answering anew), the call's signal. */
export type AnswerContext = { tool: AnyTool; runs: RunHost; principal: string | null; traceparent?: string | undefined; signal: AbortSignal }

/** Hands a form's answer to a waiting run through its host (the HTTP routes' compare-and-set); a declined resume cancels it. */
export async function answerRun(runs: RunHost, run: RunRecord, caller: RunCaller, answer: ElicitResult): Promise<RunSegment | RunRecord | undefined> {
  if (answer.action === 'cancel') return undefined
  if (run.status === 'approval-required') {
    if (answer.action === 'accept' && answer.content?.approved === true) {
      return runs.approve(run.runId, { ...caller, ...(run.approvalId ? { approvalId: run.approvalId } : {}) })
    }
    const reason = answer.content?.reason
    return runs.decline(run.runId, { ...caller, ...(typeof reason === 'string' && reason.trim() !== '' ? { reason } : {}) })
  }
  if (answer.action === 'decline') return runs.cancel(run.runId, caller)
  return runs.resume(run.runId, { ...caller, resumeData: answer.content ?? {} })
}

/** `answerRun` with its step read to the end. An answer failing the full `resumeSchema` (a form cannot carry every keyword) leaves the run suspended: `{ problem }`, to ask again. */
export async function answerWaitingRun(context: AnswerContext, run: RunRecord, answer: ElicitResult): Promise<RunRecord | { problem: string } | undefined> {
  try {
    const step = await answerRun(context.runs, run, { principal: context.principal, traceparent: context.traceparent }, answer)
    return step && 'events' in step ? await drainStep(step, context.signal) : step
  } catch (error) {
    if (run.status !== 'suspended' || !ToolrouteError.isInstance(error) || error.code !== 'RESUME_VALIDATION_FAILED') throw error
    return { problem: `\n\nThe last answer was not accepted: ${error.message}` }
  }
}

/** Reads a step to its end; the step's execution stops if `signal` (the MCP call's) aborts meanwhile. */
export async function drainStep(segment: RunSegment, signal?: AbortSignal): Promise<RunRecord> {
  // A remote host's abort is a request of its own: its failure leaves the step to end as it will.
  const onAbort = () => void Promise.resolve(segment.abort(new Error('The MCP request was cancelled'))).catch(() => {})
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    for await (const _ of segment.events);
    return await segment.settled
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}
