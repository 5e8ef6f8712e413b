import type { RunRecord } from '../runs/run-record.ts'
import type { AnswerContext } from './answer-waiting-run.ts'

/**
 * The run of a plain `tools/call` whose request was cancelled (`notifications/cancelled`, or a
 * 2026-07-28 client that dropped the request): nobody will read its result, so it is cancelled
 * rather than left to run (a background attempt is aborted) or to wait for an answer. A task's run
 * is not: its `tasks/result` may be cancelled while the task goes on (`tasks/cancel` ends it).
 */
export async function cancelAbandoned(context: Omit<AnswerContext, 'tool'>, run: RunRecord | undefined): Promise<void> {
  if (!run || !context.signal.aborted) return
  try {
    await context.runs.cancel(run.runId, { principal: context.principal })
  } catch {
    // Settled meanwhile (RUN_STATE_CONFLICT), or its store is gone: nothing is left running.
  }
}

