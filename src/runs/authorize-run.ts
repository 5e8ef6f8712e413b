import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunCaller } from './run-host.ts'
import type { RunRecord } from './run-record.ts'

export const runNotFound = (runId: string): ToolrouteError => new ToolrouteError('RUN_NOT_FOUND', `Run ${runId} not found`)

/** The run if this caller may see it: another principal's run is `RUN_NOT_FOUND` like a missing one (SPEC §4). */
export function authorizeRun(run: RunRecord | undefined, runId: string, caller: RunCaller): { ok: true; run: RunRecord } | { ok: false; error: ToolrouteError } {
  if (!run || (run.principal !== null && run.principal !== caller.principal)) return { ok: false, error: runNotFound(runId) }
  return { ok: true, run }
}
