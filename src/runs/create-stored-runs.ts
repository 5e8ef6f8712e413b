import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { authorizeRun, runNotFound } from './authorize-run.ts'
import type { RunCaller } from './run-host.ts'
import type { RunLifetime } from './run-lifetime.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'
import { packInputEvents, unpackInputEvents } from './stored-input-events.ts'

/** Runs as a store holds them, read and written the same way by every engine. */
export interface StoredRuns {
  /** Stores a new run with its first events (its input events as references); the run as stored. */
  create(run: RunRecord, events: readonly ToolEvent[]): Promise<RunRecord>
  /** The run a caller may see; `RUN_NOT_FOUND` (and deleted) once it is past retention. */
  load(runId: string, caller: RunCaller): Promise<RunRecord>
  /** The run with the events it stored after `after` (default: all of them), as emitted. */
  view(run: RunRecord, after?: number): Promise<{ run: RunRecord; events: SequencedEvent[] }>
  /** Asks for the sweep the run's state next needs (its expiry, its deletion), when the engine has a scheduler. */
  schedule(run: RunRecord): Promise<void>
}

export function createStoredRuns(deps: {
  store: RunStore
  lifetime: RunLifetime
  now: () => number
  schedule?: ((runId: string, at: number) => void | Promise<void>) | undefined
}): StoredRuns {
  const { store, lifetime, now } = deps
  return {
    async create(run, events) {
      const stored = lifetime.opened(run, now())
      await store.create(stored, packInputEvents(stored, events))
      return stored
    },
    async load(runId, caller) {
      const authorized = authorizeRun(await store.get(runId), runId, caller)
      if (!authorized.ok) throw authorized.error
      if (lifetime.isGone(authorized.run, now())) {
        // Past retention: gone, whether or not an alarm got to it first (KV and memory have none).
        await store.delete(runId)
        throw runNotFound(runId)
      }
      return authorized.run
    },
    async view(run, after = 0) {
      return { run, events: unpackInputEvents(run, await store.events(run.runId, after)) }
    },
    async schedule(run) {
      const at = deps.schedule ? lifetime.sweepAt(run) : undefined
      if (at !== undefined) await deps.schedule!(run.runId, at)
    },
  }
}
