import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunCaller } from './run-host.ts'
import type { RunRecord } from './run-record.ts'

export const runNotFound = (runId: string): ToolrouteError => new ToolrouteError('RUN_NOT_FOUND', `Run ${runId} not found`)

/**
 * The run if this caller may see it. Pure: another principal's run, like a missing one, is
 * `RUN_NOT_FOUND` (SPEC §4), so a run id reveals nothing to whoever does not own it.
 */
export function authorizeRun(run: RunRecord | undefined, runId: string, caller: RunCaller): { ok: true; run: RunRecord } | { ok: false; error: ToolrouteError } {
  if (!run || (run.principal !== null && run.principal !== caller.principal)) return { ok: false, error: runNotFound(runId) }
  return { ok: true, run }
}
