import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import { decodeRunRecord, type RunRecord } from '../../runs/run-record.ts'
import type { RunStore, TransitionResult } from '../../runs/run-store.ts'
import { checkRunLimits, jsonBytes, type RunLimits } from '../../runs/run-limits.ts'
import { deletePrefix, dropText, isStoredText, readText, stageText, unlessBusy, type StoredText } from './kv-text.ts'

/**
 * Where a run lives in Deno KV; every key of a run starts with `['toolroute', 'run', runId]`, so
 * deleting a run is one prefix scan:
 * - `[…runId]`: the run record as JSON text (`StoredText`).
 * - `[…runId, 'seq']`: the number of the run's last event (absent: none yet).
 * - `[…runId, 'bytes']`: the bytes of the run's events (`RunLimits`), written with the counter
 *   (absent: none yet, or a log stored before sizes were kept).
 * - `[…runId, 'events', lastSeq]`: the events one write added, as a JSON array numbered
 *   `lastSeq - length + 1` … `lastSeq`: one entry per write (a first step can bring hundreds of input
 *   deltas, and a commit holds at most 1000 mutations), keyed by the last number, so the entries
 *   holding events after a cursor are exactly those from `cursor + 1` on.
 * - `[…runId, 'blob', blobId, i]`: parts of a record or event batch too large for one value (kv-text.ts).
 */
export const denoKvRunPrefix = ['toolroute', 'run'] as const

const runKey = (runId: string): Deno.KvKey => [...denoKvRunPrefix, runId]
const seqKey = (runId: string): Deno.KvKey => [...runKey(runId), 'seq']
const bytesKey = (runId: string): Deno.KvKey => [...runKey(runId), 'bytes']
const eventsPrefix = (runId: string): Deno.KvKey => [...runKey(runId), 'events']
const blobsOf = (runId: string): Deno.KvKey => [...runKey(runId), 'blob']

/** A consistent read of a run: its record, its last event number, and the versions of both. */
interface Snapshot {
  runEntry: Deno.KvEntryMaybe<unknown>
  seqEntry: Deno.KvEntryMaybe<unknown>
  stored?: StoredText
  run?: RunRecord
  lastSeq: number
  bytes: number
}

/** What a feature (the run index, webhooks) adds to the commit storing a run's record, given it and the transition's patch (none: created): both commit or neither. */
export type DenoKvRunWrites = (run: RunRecord, operation: Deno.AtomicOperation, patch?: Partial<RunRecord>) => void

/** Tries of a compare-and-set that loses to a concurrent write of the same run before giving up. */
const maxTries = 100

function decodeEvents(runId: string, value: unknown): ToolEvent[] {
  const ok = Array.isArray(value) && value.every((event) => typeof event === 'object' && event !== null && typeof (event as { type?: unknown }).type === 'string')
  if (!ok) throw new Error(`Run ${runId}: a stored event batch is not a list of events`)
  return value as ToolEvent[]
}

/**
 * A run store in Deno KV. Every change is one atomic commit that checks the versionstamps of the
 * run record and of its event counter, so a transition is a true compare-and-set across every
 * process sharing the database: of many racing approvals or resumes, one wins and the others see
 * the new status. `exactlyOnce` holds.
 *
 * @example
 * const kv = await Deno.openKv()
 * const store = createDenoKvRunStore(kv)
 */
export function createDenoKvRunStore(kv: Deno.Kv, ...writes: DenoKvRunWrites[]): RunStore {
  async function snapshot(runId: string): Promise<Snapshot> {
    for (let read = 0; read < maxTries; read++) {
      const [runEntry, seqEntry, bytesEntry] = await unlessBusy(() => kv.getMany<[unknown, unknown, unknown]>([runKey(runId), seqKey(runId), bytesKey(runId)]))
      const lastSeq = typeof seqEntry.value === 'number' ? seqEntry.value : 0
      const bytes = typeof bytesEntry.value === 'number' ? bytesEntry.value : 0
      if (runEntry.versionstamp === null) return { runEntry, seqEntry, lastSeq, bytes }
      if (!isStoredText(runEntry.value)) throw new Error(`Run ${runId}: the stored value is not a run record`)
      const text = await readText(kv, blobsOf(runId), runEntry.value)
      // A part is gone: the record was replaced since it was read. Read again.
      if (text === undefined) continue
      return { runEntry, seqEntry, stored: runEntry.value, run: decodeRunRecord(JSON.parse(text)), lastSeq, bytes }
    }
    throw new Error(`Run ${runId}: its record kept changing while it was read`)
  }

  /**
   * Writes `run` (when given) and `events` if neither the record nor the counter changed since `snap`:
   * the numbered events, or `undefined` when another write got there first. Past `limits`, throws first.
   */
  async function commit(runId: string, snap: Snapshot, run: RunRecord | undefined, events: readonly ToolEvent[], limits?: RunLimits, patch?: Partial<RunRecord>): Promise<SequencedEvent[] | undefined> {
    const blobs = blobsOf(runId)
    const batch = JSON.stringify(events)
    // A JSON array of n objects is their texts, n - 1 commas and two brackets.
    const added = events.length > 0 ? jsonBytes(batch) - events.length - 1 : 0
    checkRunLimits(limits, { events: snap.lastSeq, bytes: snap.bytes }, events.length, added)
    const runText = run === undefined ? undefined : await stageText(kv, blobs, JSON.stringify(run))
    const eventsText = events.length > 0 ? await stageText(kv, blobs, batch) : undefined
    const lastSeq = snap.lastSeq + events.length
    const operation = kv.atomic().check(snap.runEntry).check(snap.seqEntry)
    if (runText !== undefined) operation.set(runKey(runId), runText)
    if (run) for (const add of writes) add(run, operation, patch)
    if (eventsText !== undefined) operation.set(seqKey(runId), lastSeq).set(bytesKey(runId), snap.bytes + added).set([...eventsPrefix(runId), lastSeq], eventsText)
    const result = await unlessBusy(() => operation.commit())
    if (!result.ok) {
      await Promise.all([dropText(kv, blobs, runText), dropText(kv, blobs, eventsText)])
      return undefined
    }
    if (runText !== undefined) await dropText(kv, blobs, snap.stored)
    return (JSON.parse(batch) as ToolEvent[]).map((event, index) => ({ seq: snap.lastSeq + index + 1, event }))
  }

  /** `attempt` on a fresh snapshot until it answers (`undefined`: its commit lost to another write). */
  async function untilCommitted<T>(runId: string, what: string, attempt: (snap: Snapshot) => Promise<T | undefined>): Promise<T> {
    for (let tries = 0; tries < maxTries; tries++) {
      const answer = await attempt(await snapshot(runId))
      if (answer !== undefined) return answer
    }
    throw new Error(`run ${runId}: too much contention to ${what}`)
  }

  return {
    exactlyOnce: true,
    create: (run, events) =>
      untilCommitted(run.runId, 'create it', (snap) => {
        if (snap.runEntry.versionstamp !== null) throw new Error(`run ${run.runId} exists`)
        return commit(run.runId, snap, JSON.parse(JSON.stringify(run)) as RunRecord, events)
      }),
    get: async (runId) => (await snapshot(runId)).run,
    transition: (runId, from, patch, events = [], when) =>
      untilCommitted(runId, 'change it', async (snap): Promise<TransitionResult | undefined> => {
        if (!snap.run) return { ok: false, reason: 'not-found' }
        if (!from.includes(snap.run.status) || (when && !when(snap.run))) return { ok: false, reason: 'conflict', run: snap.run }
        // Through JSON, as every backend stores it: a patch key set to `undefined` is removed.
        const next = JSON.parse(JSON.stringify({ ...snap.run, ...patch })) as RunRecord
        const written = await commit(runId, snap, next, events, undefined, patch)
        return written && { ok: true, run: next, events: written }
      }),
    append: (runId, events, limits) =>
      untilCommitted(runId, 'append to it', async (snap) => {
        if (!snap.run) throw new Error(`run ${runId} does not exist`)
        return events.length === 0 ? [] : commit(runId, snap, undefined, events, limits)
      }),
    async size(runId) {
      const snap = await snapshot(runId)
      return snap.run ? { events: snap.lastSeq, bytes: snap.bytes } : { events: 0, bytes: 0 }
    },
    async events(runId, after, limit = Infinity) {
      const found: SequencedEvent[] = []
      const prefix = eventsPrefix(runId)
      // Each entry holds at least one event: `limit` entries hold the page.
      const entries = await unlessBusy(() => Array.fromAsync(kv.list({ prefix, start: [...prefix, after + 1] }, Number.isFinite(limit) ? { limit } : {})))
      for (const entry of entries) {
        const lastSeq = entry.key.at(-1)
        if (typeof lastSeq !== 'number' || !isStoredText(entry.value)) throw new Error(`Run ${runId}: a stored event batch is unreadable`)
        const text = await readText(kv, blobsOf(runId), entry.value)
        // Only a delete removes an event batch's parts: the run is going away.
        if (text === undefined) break
        const batch = decodeEvents(runId, JSON.parse(text))
        const first = lastSeq - batch.length + 1
        batch.forEach((event, index) => {
          if (first + index > after && found.length < limit) found.push({ seq: first + index, event })
        })
      }
      return found
    },
    async delete(runId) {
      // The record first: a write racing the delete then fails its check instead of leaving events behind.
      await unlessBusy(() => kv.delete(runKey(runId)))
      await deletePrefix(kv, runKey(runId))
    },
  }
}
