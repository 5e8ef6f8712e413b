import { ToolrouteError } from '../errors/toolroute-error.ts'
import { waitingStatuses, type RunRecord } from './run-record.ts'
import type { RunStatus } from '../protocol/call-result.ts'

/** A step a caller asks of a run (`/runs/:runId/approve` and its siblings, MCP's answers). */
export type CallerStep = 'approve' | 'decline' | 'resume' | 'cancel'

/** The states each caller's step starts from (SPEC §4), and the word its refusal says. */
export const callerSteps: Record<CallerStep, { from: readonly RunStatus[]; verb: string }> = {
  approve: { from: ['approval-required'], verb: 'approved' },
  decline: { from: ['approval-required'], verb: 'declined' },
  resume: { from: ['suspended'], verb: 'resumed' },
  cancel: { from: ['running', ...waitingStatuses], verb: 'cancelled' },
}

/** Why `run` cannot be `action` (a past participle): it expired, or it is not `wanted`. */
export function refusal(run: RunRecord, wanted: RunStatus, action: string): ToolrouteError {
  if (run.status === 'expired') return new ToolrouteError('RUN_EXPIRED', `Run ${run.runId} expired before it was ${action}`)
  return new ToolrouteError('RUN_STATE_CONFLICT', `Run ${run.runId} is ${run.status}, not ${wanted}; it cannot be ${action}`)
}

/**
 * The refusal of a caller's step on a run in a state it does not start from; `undefined` when it
 * may. Apart from the transitions, so `finishedRuns` answers as `driveRuns` without the state machine.
 */
export function callerStepRefusal(run: RunRecord, step: CallerStep): ToolrouteError | undefined {
  const { from, verb } = callerSteps[step]
  return from.includes(run.status) ? undefined : refusal(run, from[0]!, verb)
}
