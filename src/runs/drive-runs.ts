import type { SequencedEvent } from '../protocol/tool-event.ts'
import type { ExecuteOutcome } from '../runtime/execute-tool-call.ts'
import type { ResumeState } from '../runtime/execution-context.ts'
import { checkResumeData } from '../runtime/validate-call.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { runNotFound } from './authorize-run.ts'
import type { Defer, RunCallOptions, RunDriver, RunEngine } from './create-run-engine.ts'
import { createStepRunner } from './create-step-runner.ts'
import { answerRunQuestions } from './run-questions.ts'
import { followRun } from './follow-run.ts'
import { holdRunLease, type RunLease } from './hold-run-lease.ts'
import { runBackgroundAttempt, type BackgroundAttemptDeps } from './run-background-attempt.ts'
import { cancellation } from './run-cancellation.ts'
import type { RunCaller, RunSegment } from './run-host.ts'
import { createRunNotifier } from './run-notifier.ts'
import { isRunLimitError, resolveRunLimits } from './run-limits.ts'
import type { RunRecord } from './run-record.ts'
import { transitionOf, type RunAction } from './run-transitions.ts'

type Applied = { ok: true; run: RunRecord; events: SequencedEvent[] } | { ok: false; run?: RunRecord; error: Error }

/**
 * What `createRunEngine` drives runs that wait with: the pure transitions (`transitionOf`), the
 * notifier, the step runner and the background attempts over `tools`. Every state change is one
 * compare-and-set on the store, so a run executes once however many approve or resume requests race.
 */
export const driveRuns = (tools: ReadonlyMap<string, AnyTool>, tracer?: Parameters<typeof createStepRunner>[0]['tracer']): RunDriver => (options) => {
  const { store, now, lifetime, runs } = options
  const notifier = createRunNotifier(options)
  const steps = createStepRunner({ tools, store, notifier, limits: resolveRunLimits(options.runLimits), tracer })
  const fallbackDefer: Defer = options.defer ?? ((work) => void work.catch(() => {}))
  const deferFor = (call?: RunCallOptions): Defer => call?.defer ?? fallbackDefer
  const followed = { store, notifier, now }
  const running = new Map<string, AbortController>()
  // Where each foreground step began, so a late abort from a caller of an earlier step never reaches a later one.
  const stepStarts = new WeakMap<AbortController, number>()

  /** Decides `action` and stores it as one compare-and-set (on `when` too), then wakes followers and asks for a sweep. */
  async function apply(run: RunRecord, action: RunAction, when?: (stored: RunRecord) => boolean): Promise<Applied> {
    const at = now()
    const decided = transitionOf(run, action, at)
    if (!decided.ok) return { ok: false, run, error: decided.error }
    const history = decided.patch.status === undefined ? {} : { history: [...(run.history ?? []), { status: decided.patch.status, at: new Date(at).toISOString() }] }
    const result = await store.transition(run.runId, decided.from, { ...lifetime.stamp(decided.patch, at, decided.patch.status ?? run.status), ...history }, decided.events, when)
    notifier.notify(run.runId)
    if (!result.ok) {
      if (result.reason === 'not-found') return { ok: false, error: runNotFound(run.runId) }
      // A lease held elsewhere: looked at again when it ends.
      if (when && result.run.status === 'running') await runs.schedule(result.run)
      // Lost the race: deciding again on the state another step left gives the refusal.
      const again = transitionOf(result.run, action, at)
      return { ok: false, run: result.run, error: again.ok ? runNotFound(run.runId) : again.error }
    }
    await runs.schedule(result.run)
    return result
  }
  /** A caller's step: applied, or its refusal thrown. */
  async function step(run: RunRecord, action: RunAction) {
    const applied = await apply(run, action)
    if (!applied.ok) throw applied.error
    return applied
  }
  /** The engine's own step: the run after it, or where another step (a cancellation) left it. */
  async function decide(run: RunRecord, action: RunAction, when?: (stored: RunRecord) => boolean): Promise<RunRecord> {
    const applied = await apply(run, action, when)
    return applied.ok ? applied.run : (applied.run ?? run)
  }
  /** The run after an internal transition, or `undefined` when another step got there first. */
  async function applied(run: RunRecord, action: RunAction, when?: (stored: RunRecord) => boolean) {
    const result = await apply(run, action, when)
    return result.ok ? result.run : undefined
  }
  /** Settles a step; an output the store cannot keep (past a limit) fails the run naming the limit instead. */
  const settle = (run: RunRecord, outcome: ExecuteOutcome, when?: (stored: RunRecord) => boolean) =>
    decide(run, { type: 'settle', outcome }, when).catch((error: unknown) => {
      if (outcome.status !== 'completed' || !isRunLimitError(error)) throw error
      return decide(run, { type: 'interrupt', message: (error as Error).message }, when)
    })
  /** Whether no other process executes a running run (always, on an exclusive engine). */
  const lapsed = (stored: RunRecord) => options.exclusive === true || lifetime.isLapsed(stored, now())
  /** Holds `run`'s lease while its step executes; a lease lost aborts the step, which then stores nothing more. */
  const holdLease = (run: RunRecord, controller: AbortController): RunLease =>
    holdRunLease(
      run,
      lifetime.leaseMs / 3,
      (current, holds) => applied(current, { type: 'renew' }, holds),
      () => controller.abort(cancellation('The run was taken over: its lease lapsed')),
    )

  /** The run a caller may see, as its lifetime has it now: gone past retention, expired past its time to live. */
  async function load(runId: string, caller: RunCaller): Promise<RunRecord> {
    const run = await runs.load(runId, caller)
    return lifetime.isExpired(run, now()) ? decide(run, { type: 'expire' }) : run
  }

  function doneStep(run: RunRecord, events: SequencedEvent[]): RunSegment {
    const after = (events[0]?.seq ?? 1) - 1
    return { run, events: followRun(followed, run.runId, after), after, settled: Promise.resolve(run), abort() {} }
  }
  /** A foreground step from its transition's result: executed here under its lease, which a sweep watches. */
  function foreground({ run, events }: { run: RunRecord; events: SequencedEvent[] }, defer: Defer, resume?: ResumeState, traceparent?: string): RunSegment {
    const controller = new AbortController()
    const after = events[0]!.seq - 1
    running.set(run.runId, controller)
    stepStarts.set(controller, after)
    const subscription = notifier.subscribe(run.runId)
    const execute = async () => {
      const lease = holdLease(run, controller)
      const outcome = await steps.execute(run, controller.signal, resume, events.at(-1)!.seq, traceparent)
      await lease.release()
      return settle(run, outcome, lease.holds)
    }
    const settled = execute().finally(() => {
      if (running.get(run.runId) === controller) running.delete(run.runId)
      if (!subscription.taken) subscription.dispose()
    })
    defer(settled)
    return { run, events: followRun(followed, run.runId, after, undefined, subscription), after, settled, abort: (reason) => controller.abort(reason) }
  }
  /** Asks for `runBackground(runId)` soon: the object's alarm, or deferred in-process. */
  async function requeue(runId: string, defer: Defer) {
    if (options.schedule) await options.schedule(runId, now())
    else defer(engine.runBackground(runId, { defer }))
  }

  const engine: RunEngine = {
    async open(run, events, call) {
      const stored = await runs.create(run, events)
      notifier.notify(run.runId)
      if (stored.status === 'running' && stored.background) await requeue(run.runId, deferFor(call))
      else await runs.schedule(stored)
    },
    async approve(runId, caller) {
      const result = await step(await load(runId, caller), { type: 'approve', traceparent: caller.traceparent, ...(caller.approvalId !== undefined ? { approvalId: caller.approvalId } : {}) })
      if (!result.run.background) return foreground(result, deferFor(caller), undefined, caller.traceparent)
      await requeue(runId, deferFor(caller))
      return doneStep(result.run, result.events)
    },
    async decline(runId, caller) {
      const result = await step(await load(runId, caller), { type: 'decline', ...(caller.reason !== undefined ? { reason: caller.reason } : {}) })
      return doneStep(result.run, result.events)
    },
    async resume(runId, caller) {
      const run = await load(runId, caller)
      const decided = transitionOf(run, { type: 'resume', resumeData: caller.resumeData }, now())
      if (!decided.ok) throw decided.error
      // Validated before the transition: a rejected resume leaves the run suspended.
      const checked = checkResumeData(run.toolId, (await steps.toolOf(run)).schemas.resume, caller.resumeData)
      if (!checked.ok) throw checked.error
      const result = await step(run, { type: 'resume', resumeData: caller.resumeData })
      return foreground(result, deferFor(caller), { resumeData: checked.value, suspendPayload: run.suspendPayload }, caller.traceparent)
    },
    async cancel(runId, caller) {
      const result = await step(await load(runId, caller), { type: 'cancel' })
      running.get(runId)?.abort(cancellation())
      return result.run
    },
    get: async (runId, caller) => runs.view(await load(runId, caller), caller.events),
    async answer(runId, caller) {
      await load(runId, caller)
      return answerRunQuestions(followed, runId, caller.answers)
    },
    async abortStep(runId, caller) {
      await load(runId, caller)
      const controller = running.get(runId)
      if (controller && stepStarts.get(controller) === caller.after) controller.abort(new Error(caller.message))
    },
    async follow(runId, caller) {
      await load(runId, caller)
      return followRun(followed, runId, caller.after, caller.signal)
    },
    async runBackground(runId, call) {
      // Claimed before the first `await`, so one process never runs two attempts of a run at once.
      if (running.has(runId)) return
      const cancel = new AbortController()
      running.set(runId, cancel)
      let next: 'retry' | 'done' = 'done'
      try {
        const run = await store.get(runId)
        if (run?.status === 'running' && run.background) next = await runBackgroundAttempt(attemptDeps, run, cancel)
      } finally {
        if (running.get(runId) === cancel) running.delete(runId)
      }
      if (next === 'retry') await requeue(runId, deferFor(call))
    },
    async sweep(runId) {
      const run = await store.get(runId)
      if (!run) return
      if (run.status === 'running') {
        // Executed here, its renewals late: looked at again soon.
        if (running.has(runId)) return void (await options.schedule?.(runId, Math.max(lifetime.sweepAt(run) ?? 0, now() + lifetime.leaseMs / 3)))
        // Held elsewhere: looked at again when its lease ends.
        if (!lapsed(run)) return runs.schedule(run)
        if (run.background) return engine.runBackground(runId)
        // A step whose process died mid-execution: nothing will finish it.
        await apply(run, { type: 'interrupt', message: 'The run was interrupted before it finished' }, lapsed)
        return
      }
      if (lifetime.isGone(run, now())) return store.delete(runId)
      if (lifetime.isExpired(run, now())) return void (await apply(run, { type: 'expire' }))
      await runs.schedule(run)
    },
  }
  const attemptDeps: BackgroundAttemptDeps = { tools, lapsed, holdLease, execute: steps.execute, apply: applied, settle }
  return engine
}
