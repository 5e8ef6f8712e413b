import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import type { RunRecord, RunStatus } from '../../runs/run-record.ts'
import type { RunStore, TransitionResult } from '../../runs/run-store.ts'

/**
 * Runs in a `Map`, for tests and single-process use. Every method does its work without an
 * `await` in between, so in one JavaScript process a transition is atomic.
 */
export function createMemoryRunStore(): RunStore {
  const runs = new Map<string, { run: RunRecord; log: SequencedEvent[] }>()
  const copy = <T>(value: T): T => structuredClone(value)
  const push = (log: SequencedEvent[], events: readonly ToolEvent[]) =>
    events.map((event) => {
      const entry = { seq: log.length + 1, event: copy(event) }
      log.push(entry)
      return copy(entry)
    })

  return {
    exactlyOnce: true,
    async create(run, events) {
      if (runs.has(run.runId)) throw new Error(`run ${run.runId} exists`)
      const entry = { run: copy(run), log: [] as SequencedEvent[] }
      runs.set(run.runId, entry)
      return push(entry.log, events)
    },
    async get(runId) {
      const entry = runs.get(runId)
      return entry ? copy(entry.run) : undefined
    },
    async transition(runId: string, from: readonly RunStatus[], patch: Partial<RunRecord>, events: readonly ToolEvent[] = []): Promise<TransitionResult> {
      const entry = runs.get(runId)
      if (!entry) return { ok: false, reason: 'not-found' }
      if (!from.includes(entry.run.status)) return { ok: false, reason: 'conflict', run: copy(entry.run) }
      entry.run = { ...entry.run, ...copy(patch) }
      return { ok: true, run: copy(entry.run), events: push(entry.log, events) }
    },
    async append(runId, events) {
      const entry = runs.get(runId)
      if (!entry) throw new Error(`run ${runId} does not exist`)
      return push(entry.log, events)
    },
    async events(runId, after) {
      return copy(runs.get(runId)?.log.filter((entry) => entry.seq > after) ?? [])
    },
    async delete(runId) {
      runs.delete(runId)
    },
  }
}
