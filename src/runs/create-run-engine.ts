import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { ExecuteOutcome } from '../runtime/execute-tool-call.ts'
import type { ResumeState } from '../runtime/execution-context.ts'
import { checkResumeData } from '../runtime/validate-call.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { runNotFound } from './authorize-run.ts'
import { createStoredRuns } from './create-stored-runs.ts'
import { createStepRunner } from './create-step-runner.ts'
import { answerRunQuestions } from './run-questions.ts'
import { followRun } from './follow-run.ts'
import { holdRunLease, type RunLease } from './hold-run-lease.ts'
import { runBackgroundAttempt } from './run-background-attempt.ts'
import { cancellation } from './run-cancellation.ts'
import type { RunCaller, RunHost, RunSegment } from './run-host.ts'
import { createRunLifetime } from './run-lifetime.ts'
import { createRunNotifier } from './run-notifier.ts'
import { resolveRunLimits, type RunLimits } from './run-limits.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'
import { transitionOf, type RunAction } from './run-transitions.ts'

/** Keeps work alive past the request that started it (`ctx.waitUntil`). */
export type Defer = (work: Promise<unknown>) => void

export interface RunEngineOptions {
  tools: ReadonlyMap<string, AnyTool>
  store: RunStore
  /** How long a run may wait for approval or resumption (default 24 h). */
  ttlMs?: number
  /** How long a settled run is kept before it is deleted (default 24 h). */
  retentionMs?: number
  /** Asks for `sweep(runId)` to run at a time (a Durable Object sets its alarm). */
  schedule?: (runId: string, at: number) => void | Promise<void>
  /**
   * Keeps background work alive for a call that names no `defer` of its own (a Durable Object's
   * `ctx.waitUntil`, which outlives every request); default: fire and forget.
   */
  defer?: Defer
  /** How far a run's event log may grow (default 10,000 events, 8 MiB): past them its step fails. */
  runLimits?: RunLimits
  /**
   * How long a running step's lease lasts unrenewed (default 30 s; renewed every third of it):
   * past it, the run is taken as cut off by a crash and failed, or its next background attempt
   * started (SPEC §12 "Crash recovery").
   */
  leaseMs?: number
  /**
   * This engine alone executes its runs (a Durable Object, which holds one run): a running run it
   * is not executing is executed by nobody, whatever its lease says, so a sweep need not wait for
   * the lease to run out. Elsewhere (Deno KV, several processes on one database) only a lapsed
   * lease says so.
   */
  exclusive?: boolean
  /** When runs are driven from several processes (KV), followers also poll this often (ms). */
  pollMs?: number
  now?: () => number
}

/** Per call, not per engine: the request whose `waitUntil` keeps this call's work alive. */
export interface RunCallOptions {
  defer?: Defer
}

/** The engine behind `RunHost`, plus what a Durable Object's alarm drives. */
export interface RunEngine extends RunHost {
  open(run: RunRecord, events: readonly ToolEvent[], call?: RunCallOptions): Promise<void>
  approve(runId: string, caller: RunCaller & RunCallOptions & { approvalId?: string }): Promise<RunSegment>
  resume(runId: string, caller: RunCaller & RunCallOptions & { resumeData: unknown }): Promise<RunSegment>
  answer(runId: string, caller: RunCaller & { answers: Record<string, ElicitResult> }): Promise<string[]>
  /** Runs a background run's attempts (from the object's alarm, or deferred in-process). */
  runBackground(runId: string, call?: RunCallOptions): Promise<void>
  /** Expires a waiting run past its time to live; deletes a settled run past retention. */
  sweep(runId: string): Promise<void>
  /**
   * Aborts the step that began after event `after`, if it is still running in this process: its
   * caller left. For a segment that crossed from another process (a Durable Object's RPC stream,
   * whose cancellation does not reach the object); a segment made here aborts by itself.
   */
  abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<void>
}

type Applied = { ok: true; run: RunRecord; events: SequencedEvent[] } | { ok: false; run?: RunRecord; error: Error }

/**
 * Durable runs over any `RunStore`: approval, decline, suspend/resume, background attempts,
 * cancellation, expiry and replayable events. It composes the pure transitions
 * (`transitionOf`), the lifetime policy, the notifier, the step runner and the background
 * attempts; every state change is one compare-and-set on the store, so a run executes once
 * however many approve or resume requests race.
 */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const { tools, store } = options
  const now = options.now ?? Date.now
  const lifetime = createRunLifetime(options)
  const runs = createStoredRuns({ store, lifetime, now, schedule: options.schedule })
  const notifier = createRunNotifier(options)
  const steps = createStepRunner({ tools, store, notifier, limits: resolveRunLimits(options.runLimits) })
  const fallbackDefer: Defer = options.defer ?? ((work) => void work.catch(() => {}))
  const deferFor = (call?: RunCallOptions): Defer => call?.defer ?? fallbackDefer
  const running = new Map<string, AbortController>()
  // Where each foreground step began (the `after` of its segment), so a late abort from a caller
  // of an earlier step never reaches a later one.
  const stepStarts = new WeakMap<AbortController, number>()

  /**
   * Decides `action`, stores it as one compare-and-set (on `when` too, a lease's condition),
   * wakes followers, asks for the next sweep.
   */
  async function apply(run: RunRecord, action: RunAction, when?: (stored: RunRecord) => boolean): Promise<Applied> {
    const at = now()
    const decided = transitionOf(run, action, at)
    if (!decided.ok) return { ok: false, run, error: decided.error }
    const result = await store.transition(run.runId, decided.from, lifetime.stamp(decided.patch, at, decided.patch.status ?? run.status), decided.events, when)
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
  async function settle(run: RunRecord, outcome: ExecuteOutcome, when?: (stored: RunRecord) => boolean): Promise<RunRecord> {
    const applied = await apply(run, { type: 'settle', outcome }, when)
    return applied.ok ? applied.run : (applied.run ?? run)
  }
  /**
   * Whether no other process executes a running run: its lease lapsed (on an exclusive engine,
   * always; whether this one does is `running`'s to say).
   */
  const lapsed = (stored: RunRecord) => options.exclusive === true || lifetime.isLapsed(stored, now())
  /** Holds `run`'s lease while its step executes; a lease lost aborts the step, which then stores nothing more. */
  const holdLease = (run: RunRecord, controller: AbortController): RunLease =>
    holdRunLease(
      run,
      lifetime.leaseMs / 3,
      async (current, holds) => {
        const renewed = await apply(current, { type: 'renew' }, holds)
        return renewed.ok ? renewed.run : undefined
      },
      () => controller.abort(cancellation('The run was taken over: its lease lapsed')),
    )

  /** The run a caller may see, as its lifetime has it now: gone past retention, expired past its time to live. */
  async function load(runId: string, caller: RunCaller): Promise<RunRecord> {
    const run = await runs.load(runId, caller)
    if (!lifetime.isExpired(run, now())) return run
    const expired = await apply(run, { type: 'expire' })
    return expired.ok ? expired.run : (expired.run ?? run)
  }

  function startStep(run: RunRecord, after: number, defer: Defer, work: (controller: AbortController) => Promise<RunRecord>): RunSegment {
    const controller = new AbortController()
    running.set(run.runId, controller)
    stepStarts.set(controller, after)
    const subscription = notifier.subscribe(run.runId)
    const settled = work(controller).finally(() => {
      if (running.get(run.runId) === controller) running.delete(run.runId)
      if (!subscription.taken) subscription.dispose()
    })
    defer(settled)
    return { run, events: followRun({ store, notifier }, run.runId, after, undefined, subscription), after, settled, abort: (reason) => controller.abort(reason) }
  }
  function doneStep(run: RunRecord, events: SequencedEvent[]): RunSegment {
    const after = (events[0]?.seq ?? 1) - 1
    return { run, events: followRun({ store, notifier }, run.runId, after), after, settled: Promise.resolve(run), abort() {} }
  }
  /** A foreground step from `result`'s transition: executed here under its lease, which a sweep watches. */
  async function foreground(result: { run: RunRecord; events: SequencedEvent[] }, defer: Defer, resume?: ResumeState) {
    const last = result.events.at(-1)!.seq
    return startStep(result.run, result.events[0]!.seq - 1, defer, async (controller) => {
      const lease = holdLease(result.run, controller)
      const outcome = await steps.execute(result.run, controller.signal, resume, last)
      await lease.release()
      return settle(result.run, outcome, lease.holds)
    })
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
      const result = await step(await load(runId, caller), { type: 'approve', ...(caller.approvalId !== undefined ? { approvalId: caller.approvalId } : {}) })
      if (!result.run.background) return foreground(result, deferFor(caller))
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
      return foreground(result, deferFor(caller), { resumeData: checked.value, suspendPayload: run.suspendPayload })
    },
    async cancel(runId, caller) {
      const result = await step(await load(runId, caller), { type: 'cancel' })
      running.get(runId)?.abort(cancellation())
      return result.run
    },
    async get(runId, caller) {
      const run = await load(runId, caller)
      return caller.events ? runs.view(run, caller.events) : { run, events: [] }
    },
    async answer(runId, caller) {
      await load(runId, caller)
      return answerRunQuestions({ store, notifier, now }, runId, caller.answers)
    },
    async abortStep(runId, caller) {
      await load(runId, caller)
      const controller = running.get(runId)
      if (controller && stepStarts.get(controller) === caller.after) controller.abort(new Error(caller.message))
    },
    async follow(runId, caller) {
      await load(runId, caller)
      return followRun({ store, notifier }, runId, caller.after, caller.signal)
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
  const attemptDeps = {
    tools,
    lapsed,
    holdLease,
    execute: (run: RunRecord, signal: AbortSignal) => steps.execute(run, signal),
    apply: async (run: RunRecord, action: RunAction, when?: (stored: RunRecord) => boolean) => {
      const applied = await apply(run, action, when)
      return applied.ok ? applied.run : undefined
    },
    settle,
  }
  return engine
}
