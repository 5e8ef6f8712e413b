import type { ExecuteOutcome } from '../runtime/execute-tool-call.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { loadTool } from '../manifest/load-tool.ts'
import type { RunLease } from './hold-run-lease.ts'
import type { RunRecord } from './run-record.ts'
import type { RunAction } from './run-transitions.ts'

const defaultBackgroundTimeoutMs = 10 * 60 * 1000

type Condition = (stored: RunRecord) => boolean

/** What one background attempt needs of the engine. */
export interface BackgroundAttemptDeps {
  tools: ReadonlyMap<string, AnyTool>
  /** Whether no other process holds the run: an attempt's condition. */
  lapsed: Condition
  /** Holds the run's lease while the attempt executes (a lease lost aborts `cancel`). */
  holdLease(run: RunRecord, cancel: AbortController): RunLease
  execute(run: RunRecord, signal: AbortSignal): Promise<ExecuteOutcome>
  /** Applies an internal transition: the run after it, or `undefined` when another step got there first. */
  apply(run: RunRecord, action: RunAction, when?: Condition): Promise<RunRecord | undefined>
  /** Settles the step with its outcome: the run as it then is (the cancellation's, if one came first). */
  settle(run: RunRecord, outcome: ExecuteOutcome, when?: Condition): Promise<RunRecord>
}

/**
 * One attempt of a background run (on Durable Objects, in its own alarm, whose wall time is
 * bounded); answers whether another should follow. It holds the run's lease: one that lapses is
 * found by the sweep, and that attempt counts.
 */
export async function runBackgroundAttempt(deps: BackgroundAttemptDeps, run: RunRecord, cancel: AbortController): Promise<'retry' | 'done'> {
  // A tool whose module cannot load fails in `execute`, as its calls do; its limits default here.
  const tool = await loadTool(deps.tools, run.toolId).catch(() => undefined)
  const timeoutMs = tool?.background?.timeoutMs ?? defaultBackgroundTimeoutMs
  const maxRetries = tool?.background?.maxRetries ?? 0
  const attempts = (run.attempts ?? 0) + 1
  if (attempts > maxRetries + 1) {
    await deps.apply(run, { type: 'interrupt', message: `The run was interrupted after ${run.attempts} attempt(s)` }, deps.lapsed)
    return 'done'
  }
  const current = await deps.apply(run, { type: 'start-attempt', of: maxRetries + 1 }, deps.lapsed)
  if (!current) return 'done'
  const lease = deps.holdLease(current, cancel)
  const outcome = await deps.execute(current, AbortSignal.any([cancel.signal, AbortSignal.timeout(timeoutMs)]))
  await lease.release()
  // A run that reached a limit would reach it again: it fails at once.
  if (outcome.status === 'failed' && !outcome.final && attempts <= maxRetries && !cancel.signal.aborted) {
    // A compare-and-set, so a run cancelled meanwhile gets no event after its `finish`.
    const logged = await deps.apply(current, { type: 'retry', message: `Attempt ${attempts} failed: ${outcome.error.message}; retrying` }, lease.holds)
    return logged ? 'retry' : 'done'
  }
  const settled = await deps.settle(current, outcome, lease.holds)
  const callback = outcome.status === 'completed' ? tool?.background?.onComplete : outcome.status === 'failed' ? tool?.background?.onFailed : undefined
  if (callback && settled.status === outcome.status) {
    try {
      await callback({
        runId: run.runId,
        toolId: run.toolId,
        toolCallId: run.toolCallId,
        status: outcome.status as 'completed' | 'failed',
        attempts,
        ...(outcome.status === 'completed' ? { output: outcome.output } : {}),
        ...(outcome.status === 'failed' ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
      })
    } catch {
      // A callback observes the run; its failure does not change it.
    }
  }
  return 'done'
}
