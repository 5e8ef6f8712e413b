import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-execution-context.ts'
import { runNotFound } from './authorize-run.ts'
import { cancellation } from './run-cancellation.ts'
import type { RunNotifier } from './run-notifier.ts'
import type { RunQuestion, RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'

export interface RunQuestionDeps {
  store: RunStore
  notifier: RunNotifier
  now: () => number
}

/** The questions a run still waits on (asked, not yet answered), by key. */
export function pendingQuestions(run: RunRecord): Record<string, ElicitRequestParams> {
  const pending: Record<string, ElicitRequestParams> = {}
  for (const [key, question] of Object.entries(run.questions ?? {})) if (!question.answer) pending[key] = question.request
  return pending
}

const same = (a: RunRecord['questions'], b: RunRecord['questions']) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {})

/**
 * Rewrites a running run's questions with `change` (`undefined`: nothing to write), a compare-and-set
 * on the questions read: asker and answerer write the same field, so a lost race is decided again.
 */
async function rewrite(deps: RunQuestionDeps, runId: string, change: (run: RunRecord) => Record<string, RunQuestion> | undefined): Promise<RunRecord> {
  for (;;) {
    const run = await deps.store.get(runId)
    if (!run) throw runNotFound(runId)
    if (run.status !== 'running') throw new ToolrouteError('RUN_STATE_CONFLICT', `Run ${runId} is ${run.status}: it asks nothing`)
    const questions = change(run)
    if (!questions) return run
    const patch = { questions: Object.keys(questions).length > 0 ? questions : undefined, updatedAt: new Date(deps.now()).toISOString() }
    const result = await deps.store.transition(runId, ['running'], patch, [], (stored) => same(stored.questions, run.questions))
    if (result.ok) {
      deps.notifier.notify(runId)
      return result.run
    }
    if (result.reason === 'not-found') throw runNotFound(runId)
  }
}

/**
 * Asks a question from a running step and waits for its answer, both stored on the run (so any
 * process sees them); the step then removes the question. The step's `signal` ends the wait.
 */
export async function askRunQuestion(deps: RunQuestionDeps, runId: string, request: ElicitRequestParams, key: string, signal: AbortSignal): Promise<ElicitResult> {
  await rewrite(deps, runId, (run) => {
    if (run.questions?.[key]) throw new ToolrouteError('EXECUTION_FAILED', `The run already asks a question under the key ${key}`)
    return { ...run.questions, [key]: { request } }
  })
  for (;;) {
    if (signal.aborted) throw signal.reason ?? cancellation()
    // Listened to before reading, so an answer stored in between still wakes this wait.
    const change = deps.notifier.nextChange(runId, signal)
    try {
      const run = await deps.store.get(runId)
      const answer = run?.questions?.[key]?.answer
      if (answer) {
        await rewrite(deps, runId, (current) => {
          const { [key]: _answered, ...rest } = current.questions ?? {}
          return rest
        }).catch(() => undefined)
        return answer
      }
      if (!run || run.status !== 'running') throw new Error(`The run is ${run?.status ?? 'gone'}: its question will not be answered`)
      await change.promise
    } finally {
      change.dispose()
    }
  }
}

/** Stores answers to a running run's pending questions, each once (other keys ignored); resolves with those answered. */
export async function answerRunQuestions(deps: RunQuestionDeps, runId: string, answers: Record<string, ElicitResult>): Promise<string[]> {
  let answered: string[] = []
  await rewrite(deps, runId, (run) => {
    answered = Object.keys(answers).filter((key) => run.questions?.[key] && !run.questions[key].answer)
    if (answered.length === 0) return undefined
    const questions = { ...run.questions }
    for (const key of answered) questions[key] = { ...questions[key]!, answer: answers[key]! }
    return questions
  })
  return answered
}
