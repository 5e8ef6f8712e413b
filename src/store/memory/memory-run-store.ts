import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import { checkRunLimits, jsonBytes } from '../../runs/run-limits.ts'
import type { RunRecord } from '../../runs/run-record.ts'
import type { RunStore } from '../../runs/run-store.ts'

type Entry = { run: RunRecord; log: SequencedEvent[]; bytes: number }

/** Runs in a `Map`, for one process: no method awaits mid-way, so a transition is atomic. */
export function createMemoryRunStore(): RunStore {
  const runs = new Map<string, Entry>()
  const copy = <T>(value: T): T => structuredClone(value)
  const bytesOf = (events: readonly ToolEvent[]) => events.reduce((sum, event) => sum + jsonBytes(JSON.stringify(event)), 0)
  const push = (entry: Entry, events: readonly ToolEvent[], bytes = bytesOf(events)) => {
    entry.bytes += bytes
    return events.map((event) => {
      const stored = { seq: entry.log.length + 1, event: copy(event) }
      entry.log.push(stored)
      return copy(stored)
    })
  }

  return {
    exactlyOnce: true,
    async create(run, events) {
      if (runs.has(run.runId)) throw new Error(`run ${run.runId} exists`)
      const entry: Entry = { run: copy(run), log: [], bytes: 0 }
      runs.set(run.runId, entry)
      return push(entry, events)
    },
    async get(runId) {
      const entry = runs.get(runId)
      return entry ? copy(entry.run) : undefined
    },
    async transition(runId, from, patch, events = [], when) {
      const entry = runs.get(runId)
      if (!entry) return { ok: false, reason: 'not-found' }
      if (!from.includes(entry.run.status) || (when && !when(entry.run))) return { ok: false, reason: 'conflict', run: copy(entry.run) }
      entry.run = { ...entry.run, ...copy(patch) }
      return { ok: true, run: copy(entry.run), events: push(entry, events) }
    },
    async append(runId, events, limits) {
      const entry = runs.get(runId)
      if (!entry) throw new Error(`run ${runId} does not exist`)
      const bytes = bytesOf(events)
      checkRunLimits(limits, { events: entry.log.length, bytes: entry.bytes }, events.length, bytes)
      return push(entry, events, bytes)
    },
    async events(runId, after, limit = Infinity) {
      // `seq` is the position in the log plus one: a page is a slice.
      const from = Math.max(0, after)
      return copy(runs.get(runId)?.log.slice(from, from + limit) ?? [])
    },
    async size(runId) {
      const entry = runs.get(runId)
      return { events: entry?.log.length ?? 0, bytes: entry?.bytes ?? 0 }
    },
    async delete(runId) {
      runs.delete(runId)
    },
  }
}
