import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import { authorizeRun, runNotFound } from './authorize-run.ts'
import type { RunCaller, RunEventPage } from './run-host.ts'
import { eventPage } from './run-limits.ts'
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
  /** The run with a page of the events it stored (`RunEventPage`), as emitted; none without a page. */
  view(run: RunRecord, page?: RunEventPage): Promise<{ run: RunRecord; events: SequencedEvent[] }>
  /** The events the run stored after `after`, as emitted, read a page at a time. */
  replay(run: RunRecord, after: number): AsyncGenerator<SequencedEvent>
  /** Asks for the sweep the run's state next needs, when the engine has a scheduler. */
  schedule(run: RunRecord): Promise<void>
}

export function createStoredRuns(deps: { store: RunStore; lifetime: RunLifetime; now: () => number; schedule?: (runId: string, at: number) => void | Promise<void> }): StoredRuns {
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
        // Past retention: gone, whether or not an alarm got to it first.
        await store.delete(runId)
        throw runNotFound(runId)
      }
      return authorized.run
    },
    async view(run, page) {
      if (!page) return { run, events: [] }
      const limit = Math.min(Math.max(Math.trunc(page.limit ?? eventPage.size), 1), eventPage.maxSize)
      // Numbers run from 1 without gaps, so the page before `before` starts at a known number.
      const before = Math.min(page.before ?? Infinity, (await store.size(run.runId)).events + 1)
      const after = Math.max(0, before - 1 - limit)
      const events = before > 1 ? await store.events(run.runId, after, before - 1 - after) : []
      // Within the page's bytes, newest first: an oversized page's oldest go to the page before.
      const sizeOf = (index: number) => JSON.stringify(events[index]!.event).length
      let first = Math.max(0, events.length - 1)
      for (let bytes = events.length > 0 ? sizeOf(first) : 0; first > 0 && (bytes += sizeOf(first - 1)) <= eventPage.maxBytes; ) first -= 1
      return { run, events: unpackInputEvents(run, events.slice(first)) }
    },
    async *replay(run, after) {
      for (let cursor = after; ; ) {
        const events = await store.events(run.runId, cursor, eventPage.size)
        yield* unpackInputEvents(run, events)
        if (events.length < eventPage.size) return
        cursor = events.at(-1)!.seq
      }
    },
    async schedule(run) {
      const at = deps.schedule ? lifetime.sweepAt(run) : undefined
      if (at !== undefined) await deps.schedule!(run.runId, at)
    },
  }
}
