import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { pendingQuestions } from '../runs/run-questions.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'

/** Hands a request's answers (`readAnswer`, by key) to a running run's pending questions. `unanswerable` when its host cannot answer; a run settled meanwhile counts as `answered`: nothing waits any more. */
export async function answerPendingQuestions(runs: RunHost, run: RunRecord, principal: string | null, readAnswer: (key: string) => ElicitResult | undefined): Promise<'answered' | 'unanswered' | 'unanswerable'> {
  const answers: Record<string, ElicitResult> = {}
  for (const key of Object.keys(pendingQuestions(run))) {
    const answer = readAnswer(key)
    if (answer) answers[key] = answer
  }
  if (Object.keys(answers).length === 0) return 'unanswered'
  if (!runs.answer) return 'unanswerable'
  await runs.answer(run.runId, { principal, answers }).catch(unlessConflict)
  return 'answered'
}

/** Rethrows any failure but a conflict: a run settled (or answered) meanwhile leaves nothing to do. */
export function unlessConflict(error: unknown): void {
  if (!ToolrouteError.isInstance(error) || error.code !== 'RUN_STATE_CONFLICT') throw error
}
