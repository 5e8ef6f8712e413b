import type { ToolEvent } from '../protocol/tool-event.ts'
import type { ElicitResult } from '../tool/tool-execution-context.ts'
import { createStoredRuns, type StoredRuns } from './create-stored-runs.ts'
import type { RunCaller, RunHost, RunSegment } from './run-host.ts'
import { createRunLifetime, type RunLifetime } from './run-lifetime.ts'
import type { RunLimits } from './run-limits.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'
import type { RunIndexWrites } from './run-index.ts'
import { withIndexedStore } from './with-indexed-store.ts'

/** Keeps work alive past the request that started it (`ctx.waitUntil`). */
export type Defer = (work: Promise<unknown>) => void

export interface RunEngineOptions {
  store: RunStore
  /** Where the principals' runs are listed (`GET /runs`, MCP `tasks/list`): kept by the store's writes. */
  index?: RunIndexWrites
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
  /** How long a running step's lease lasts unrenewed (default 30 s): past it, a crash cut the run off (SPEC §12). */
  leaseMs?: number
  /** This engine alone executes its runs (a Durable Object), so a sweep need not wait for a lease to run out. */
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
   * Aborts the step that began after event `after`, if it runs here: its caller left. For a Durable
   * Object's RPC stream, whose cancellation does not reach the object.
   */
  abortStep(runId: string, caller: RunCaller & { after: number; message: string }): Promise<void>
}

/** The engine's options and what every engine is made of, handed to what it is given as `drive`. */
export interface RunEngineParts extends RunEngineOptions {
  now: () => number
  lifetime: RunLifetime
  runs: StoredRuns
}

/** What an engine keeps and how, over its parts: `driveRuns(tools)` or `finishedRuns`. */
export type RunDriver = (parts: RunEngineParts) => RunEngine

/**
 * Runs over any `RunStore`; what it is given as `drive` decides what is kept: every run (approval,
 * suspend/resume, background attempts, cancellation, expiry), or only runs stored once settled
 * (an `Idempotency-Key`, `storeRuns: 'all'`), read back until retention.
 */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const now = options.now ?? Date.now
  const lifetime = createRunLifetime(options)
  if (options.index) options = { ...options, store: withIndexedStore(options.store, options.index) }
  const runs = createStoredRuns({ ...options, lifetime, now })
  return options.drive({ ...options, now, lifetime, runs })
}
