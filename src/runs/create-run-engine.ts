import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { createStoredRuns, type StoredRuns } from './create-stored-runs.ts'
import type { RunCaller, RunHost, RunSegment } from './run-host.ts'
import { createRunLifetime, type RunLifetime } from './run-lifetime.ts'
import type { RunLimits } from './run-limits.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'

/** Keeps work alive past the request that started it (`ctx.waitUntil`). */
export type Defer = (work: Promise<unknown>) => void

export interface RunEngineOptions {
  store: RunStore
  /**
   * What the engine keeps, and the code that does it: `driveRuns(tools)` for every run (it drives
   * those that wait), `finishedRuns` for runs stored settled. Each is bundled only where passed.
   */
  drive: RunDriver
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

/** What an engine keeps and how, over its parts: `driveRuns(tools)` or `finishedRuns`. */
export type RunDriver = (parts: RunEngineParts) => KeptRuns

/**
 * Runs over any `RunStore`; what it is given as `drive` decides what is kept: every run (approval,
 * suspend/resume, background attempts, cancellation, expiry), or only runs stored once settled
 * (an `Idempotency-Key`, `storeRuns: 'all'`), read back until retention.
 */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const now = options.now ?? Date.now
  const lifetime = createRunLifetime(options)
  const runs = createStoredRuns({ store: options.store, lifetime, now, schedule: options.schedule })
  const parts = { options, now, lifetime, runs }
  const { load, ...kept } = options.drive(parts)
  return {
    ...kept,
    async get(runId, caller) {
      const run = await load(runId, caller)
      return caller.events ? runs.view(run, caller.events) : { run, events: [] }
    },
  }
}
