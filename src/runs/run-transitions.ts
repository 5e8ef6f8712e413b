import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { finishOf, type ExecuteOutcome } from '../runtime/execute-tool-call.ts'
import { waitingStatuses, type RunRecord } from './run-record.ts'
import type { RunStatus } from '../protocol/call-result.ts'
import { callerStepRefusal, callerSteps, refusal, type CallerStep } from './run-refusal.ts'

/** What can happen to a run: a caller's step, or the engine's own bookkeeping. */
export type RunAction =
  | { type: 'approve'; approvalId?: string; traceparent?: string | undefined }
  | { type: 'decline'; reason?: string }
  | { type: 'resume'; resumeData: unknown }
  | { type: 'cancel' }
  | { type: 'expire' }
  /** A step's outcome, with `finish`. */
  | { type: 'settle'; outcome: ExecuteOutcome }
  /** Nothing executes the run any more (its process died, its attempts ran out). */
  | { type: 'interrupt'; message: string }
  /** A background attempt of at most `of` begins: counted before it starts, so one cut short by a restart is not free. */
  | { type: 'start-attempt'; of: number }
  /** The step at work is alive: its lease is renewed (the lifetime policy stamps it). */
  | { type: 'renew' }
  /** A background attempt failed and another follows. */
  | { type: 'retry'; message: string }

/** A decided transition (a compare-and-set from `from`, its patch without times, its events), or its refusal. */
export type RunTransition =
  | { ok: true; from: readonly RunStatus[]; patch: Partial<RunRecord>; events: ToolEvent[] }
  | { ok: false; error: ToolrouteError }

const refused = (error: ToolrouteError): RunTransition => ({ ok: false, error })

const start = (run: RunRecord): ToolEvent => ({ type: 'start', messageMetadata: { runId: run.runId, toolCallId: run.toolCallId } })

/** A step that ends (or an attempt that starts over) leaves no question behind: nobody would read its answer. */
const unasked: Partial<RunRecord> = { questions: undefined }

/** The patch that ends a step with its outcome. */
function settledPatch(outcome: ExecuteOutcome): Partial<RunRecord> {
  if (outcome.status === 'completed') return { status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput, suspendPayload: undefined, ...unasked }
  if (outcome.status === 'suspended') return { status: 'suspended', suspendPayload: outcome.suspendPayload, ...unasked }
  return { status: 'failed', error: outcome.error.toJSON().error, ...unasked }
}

/**
 * Decides what `action` does to `run` at `now`, without touching a store: SPEC §4's state machine.
 * The engine applies it as one compare-and-set; deciding again on the run it lost a race to gives the refusal.
 */
export function transitionOf(run: RunRecord, action: RunAction, now: number): RunTransition {
  // A caller's step first: refused in any state it does not start from.
  const refusedStep = action.type in callerSteps ? callerStepRefusal(run, action.type as CallerStep) : undefined
  if (refusedStep) return refused(refusedStep)
  switch (action.type) {
    case 'approve': {
      if (action.approvalId !== undefined && action.approvalId !== run.approvalId) {
        return { ok: false, error: new ToolrouteError('RUN_STATE_CONFLICT', `Approval ${action.approvalId} does not belong to run ${run.runId}`) }
      }
      const events: ToolEvent[] = [start(run), { type: 'tool-approval-response', approvalId: run.approvalId ?? '', approved: true }]
      // A background run's lease is taken by its first attempt, which may start at once anywhere; a traced one's attempts go under the approver's trace.
      const approvedUnder = run.spanId ? action.traceparent : undefined
      return { ok: true, from: callerSteps.approve.from, patch: { status: 'running', ...(run.background ? { leaseUntil: undefined, ...(approvedUnder ? { approvedUnder } : {}) } : {}) }, events }
    }
    case 'decline': {
      const reason = action.reason !== undefined ? { reason: action.reason } : {}
      const events: ToolEvent[] = [
        start(run),
        { type: 'tool-approval-response', approvalId: run.approvalId ?? '', approved: false, ...reason },
        { type: 'tool-output-denied', toolCallId: run.toolCallId },
        { type: 'finish', finishReason: 'stop' },
      ]
      return { ok: true, from: callerSteps.decline.from, patch: { status: 'declined', ...reason }, events }
    }
    case 'resume': {
      const events: ToolEvent[] = [start(run), { type: 'data-tool-resumed', data: { runId: run.runId, toolCallId: run.toolCallId, resumeData: action.resumeData } }]
      return { ok: true, from: callerSteps.resume.from, patch: { status: 'running' }, events }
    }
    case 'cancel': {
      const events: ToolEvent[] = [
        // A waiting run's last stream ended with `finish`: the cancellation opens its own.
        ...(waitingStatuses.includes(run.status) ? [start(run)] : []),
        { type: 'tool-output-error', toolCallId: run.toolCallId, errorText: 'The run was cancelled' },
        { type: 'finish', finishReason: 'other' },
      ]
      return { ok: true, from: callerSteps.cancel.from, patch: { status: 'cancelled', ...unasked }, events }
    }
    case 'expire':
      if (!waitingStatuses.includes(run.status)) return refused(refusal(run, run.status, 'expired'))
      return { ok: true, from: waitingStatuses, patch: { status: 'expired' }, events: [] }
    case 'settle':
      if (run.status !== 'running') return refused(refusal(run, 'running', 'settled'))
      return { ok: true, from: ['running'], patch: settledPatch(action.outcome), events: [finishOf(action.outcome)] }
    case 'interrupt': {
      if (run.status !== 'running') return refused(refusal(run, 'running', 'interrupted'))
      const error = new ToolrouteError('EXECUTION_FAILED', action.message)
      const events: ToolEvent[] = [{ type: 'tool-output-error', toolCallId: run.toolCallId, errorText: action.message }, { type: 'finish', finishReason: 'error' }]
      return { ok: true, from: ['running'], patch: { status: 'failed', error: error.toJSON().error, ...unasked }, events }
    }
    case 'start-attempt': {
      if (run.status !== 'running' || !run.background) return refused(refusal(run, 'running', 'attempted'))
      const attempt = (run.attempts ?? 0) + 1
      return { ok: true, from: ['running'], patch: { attempts: attempt, ...unasked }, events: [{ type: 'data-tool-attempt', data: { attempt, of: action.of } }] }
    }
    case 'renew':
      if (run.status !== 'running') return refused(refusal(run, 'running', 'renewed'))
      return { ok: true, from: ['running'], patch: {}, events: [] }
    case 'retry':
      if (run.status !== 'running') return refused(refusal(run, 'running', 'retried'))
      // The attempt gives its lease up, so the next one starts at once, in whichever process.
      return { ok: true, from: ['running'], patch: { leaseUntil: undefined, ...unasked }, events: [{ type: 'data-tool-log', data: { level: 'warn', message: action.message, time: new Date(now).toISOString() } }] }
  }
}
