import type { RunRecord } from '../runs/run-record.ts'
import type { AnswerContext } from './answer-waiting-run.ts'

/**
 * Cancels the run of a plain `tools/call` whose request was cancelled or dropped: nobody will read
 * its result. (Not a task's: its `tasks/result` may be cancelled while the task goes on.)
 */
export async function cancelAbandoned(context: Omit<AnswerContext, 'tool'>, run: RunRecord | undefined): Promise<void> {
  if (!run || !context.signal.aborted) return
  try {
    await context.runs.cancel(run.runId, { principal: context.principal })
  } catch {
    // Settled meanwhile (RUN_STATE_CONFLICT), or its store is gone: nothing is left running.
  }
}

