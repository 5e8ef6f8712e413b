import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { refuseToKeep } from './create-no-run-host.ts'
import { createStoredRuns, type StoredRuns } from './create-stored-runs.ts'
import type { RunCaller, RunHost, RunSegment } from './run-host.ts'
import { createRunLifetime, type RunLifetime } from './run-lifetime.ts'
import type { RunLimits } from './run-limits.ts'
import { settledStatuses, type RunRecord } from './run-record.ts'
import { callerStepRefusal, type CallerStep } from './run-refusal.ts'
import type { RunStore } from './run-store.ts'

/** Keeps work alive past the request that started it (`ctx.waitUntil`). */
export type Defer = (work: Promise<unknown>) => void

export interface RunEngineOptions {
  store: RunStore
  /**
   * The code that drives runs that wait (`driveRuns(tools)`). Without it the engine keeps only
   * finished runs, and an app that passes none does not bundle the driving code.
   */
  drive?: RunDriver
  /** How long a run may wait for approval or resumption (default 24 h). */
  ttlMs?: number
  /** How long a settled run is kept before it is deleted (default 24 h). */
  retentionMs?: number
  /** Asks for `sweep(runId)` to run at a time (a Durable Object sets its alarm). */
  schedule?: (runId: string, at: number) => void | Promise<void>
  /** Keeps background work alive for a call that names no `defer` of its own; default: fire and forget. */
  defer?: Defer
  /** How far a run's event log may grow (default 10,000 events, 8 MiB): past them its step fails. */
  runLimits?: RunLimits
  /**
   * How long a running step's lease lasts unrenewed (default 30 s; renewed every third of it):
   * past it, the run is taken as cut off by a crash (SPEC §12 "Crash recovery").
   */
  leaseMs?: number
  /**
   * This engine alone executes its runs (a Durable Object holds one run), so a sweep need not wait
   * for a running run's lease to run out. Elsewhere (Deno KV, several processes) only a lapsed lease says so.
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
   * Aborts the step that began after event `after`, if it still runs in this process: its caller
   * left. For a segment from another process (a Durable Object's RPC stream, whose cancellation
   * does not reach the object); a segment made here aborts by itself.
   */
  abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<void>
}

/** What every engine is made of, handed to its driver. */
export interface RunEngineParts {
  options: RunEngineOptions
  now: () => number
  lifetime: RunLifetime
  runs: StoredRuns
}

/** The engine's methods but `get`, and the run a caller may see (`get` reads it through `load`). */
export type KeptRuns = Omit<RunEngine, 'get'> & { load(runId: string, caller: RunCaller): Promise<RunRecord> }

/** The code that drives runs that wait, over an engine's parts (`driveRuns(tools)`). */
export type RunDriver = (parts: RunEngineParts) => KeptRuns

/**
 * Runs over any `RunStore`. What it is given decides what is kept: with `drive`, every run
 * (approval, suspend/resume, background attempts, cancellation, expiry); without it, only runs
 * stored once settled (an `Idempotency-Key`, `storeRuns: 'all'`), read back until retention.
 */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const now = options.now ?? Date.now
  const lifetime = createRunLifetime(options)
  const runs = createStoredRuns({ store: options.store, lifetime, now, schedule: options.schedule })
  const parts = { options, now, lifetime, runs }
  const { load, ...kept } = options.drive?.(parts) ?? keepFinished(parts)
  return {
    ...kept,
    async get(runId, caller) {
      const run = await load(runId, caller)
      return caller.events ? runs.view(run, caller.events) : { run, events: [] }
    },
  }
}

/**
 * Runs stored once settled, with all their events, and only read back: a caller's step is
 * refused as the driven engine refuses it for a run in that state, and a run that is not settled
 * (a tool that suspends through a helper, which the build cannot see) is not stored.
 */
function keepFinished({ options: { store }, now, lifetime, runs }: RunEngineParts): KeptRuns {
  const refuse = async (runId: string, caller: RunCaller, step: CallerStep): Promise<never> => {
    const run = await runs.load(runId, caller)
    // A run this engine did not store (a deploy whose tools waited left it) cannot be driven here.
    throw callerStepRefusal(run, step) ??
      new ToolrouteError('EXECUTION_FAILED', `Run ${run.runId} is ${run.status}, and this Worker keeps only finished runs (none of its tools waits): it cannot be driven here`)
  }
  return {
    load: runs.load,
    async open(run, events) {
      if (!settledStatuses.includes(run.status)) {
        refuseToKeep(run, `needs its run kept ${run.status}, but this Worker keeps only finished runs: pass \`runStore: workerRunStore\` (from toolroute/workers), as toolroute build does when it sees a tool that may wait (a tool that suspends: give it a suspendSchema or resumeSchema)`)
      }
      await runs.schedule(await runs.create(run, events))
    },
    approve: (runId, caller) => refuse(runId, caller, 'approve'),
    decline: (runId, caller) => refuse(runId, caller, 'decline'),
    resume: (runId, caller) => refuse(runId, caller, 'resume'),
    cancel: (runId, caller) => refuse(runId, caller, 'cancel'),
    async answer(runId, caller) {
      // A settled run asks nothing: no key names a pending question.
      await runs.load(runId, caller)
      return []
    },
    async abortStep(runId, caller) {
      // Nothing executes here: only whether the caller may see the run.
      await runs.load(runId, caller)
    },
    // A settled run's log is complete: its events after `after`, and the end.
    follow: async (runId, caller) => runs.replay(await runs.load(runId, caller), caller.after),
    async runBackground() {},
    async sweep(runId) {
      const run = await store.get(runId)
      if (!run) return
      // Retention over, or a run this engine cannot drive (its expiry came): deleted with its alarm.
      if (!settledStatuses.includes(run.status) || lifetime.isGone(run, now())) return store.delete(runId)
      await runs.schedule(run)
    },
  }
}
