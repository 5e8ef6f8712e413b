import type { SequencedEvent, ToolEvent } from '../../protocol/tool-event.ts'
import { decodeRunRecord, type RunRecord } from '../../runs/run-record.ts'
import type { RunStore, TransitionResult } from '../../runs/run-store.ts'
import { checkRunLimits, checkStoredValue, jsonBytes, storedValueLimits, type RunLimits } from '../../runs/run-limits.ts'

export interface KvRunStoreOptions {
  /**
   * Seconds after its last write that each key expires (Workers KV's `expirationTtl`, at least 60): more than a
   * run can live (its time to live, its work, its retention). Default: never (the engine deletes settled runs).
   */
  expirationTtl?: number
}

/** Largest event kept in its key's metadata (KV allows 1024 bytes of metadata per key). */
const metadataEventBytes = 900
/** Keys per bulk `get` (the KV limit). */
const bulkGetKeys = 100

type RecordMetadata = { lastSeq: number }
type EventMetadata = { event?: ToolEvent; bytes?: number }

const recordKey = (runId: string) => `run:${runId}`
const eventPrefix = (runId: string) => `run:${runId}:event:`
/** Zero-padded so that KV's lexicographic `list` order is the log's order. */
const eventKey = (runId: string, seq: number) => `${eventPrefix(runId)}${String(seq).padStart(10, '0')}`

/**
 * A run store over Workers KV. KV is eventually consistent and has no compare-and-set, so this store is
 * NOT exactly-once: two isolates can both win a transition (within one, a run's operations are serialised).
 * Use Durable Objects when a tool must run once.
 *
 * Key layout:
 * - `run:<runId>`: the run record as JSON; metadata `{ lastSeq }`, the last event number its writer
 *   knew of (a later isolate numbers its appends after it).
 * - `run:<runId>:event:<seq, 10 digits>`: one event as JSON, one key each (KV allows one write per second
 *   per key). Its metadata holds its size in bytes (so `RunLimits` are checked from a `list` alone) and
 *   an event of up to 900 bytes itself (so `events(after)` is one `list` per 1000 events, with bulk `get`s
 *   only for larger ones). KV lists from a prefix's start only: a page after a cursor lists the keys before it too.
 */
export function createKvRunStore(kv: KVNamespace, options: KvRunStoreOptions = {}): RunStore {
  const putOptions = options.expirationTtl ? { expirationTtl: options.expirationTtl } : {}
  /** Per-run queues: this isolate's operations on one run never interleave. */
  const queues = new Map<string, Promise<unknown>>()
  /** Per run, the last event number this isolate wrote or read, and the bytes of its events as far as it knows. */
  const lastSeqs = new Map<string, number>()
  const logBytes = new Map<string, number>()

  function serialised<T>(runId: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(runId) ?? Promise.resolve()
    const next = previous.then(work, work)
    const tail = next.catch(() => {})
    queues.set(runId, tail)
    void tail.then(() => {
      if (queues.get(runId) === tail) queues.delete(runId)
    })
    return next
  }

  async function readRecord(runId: string): Promise<{ run: RunRecord; lastSeq: number } | undefined> {
    const { value, metadata } = await kv.getWithMetadata<unknown, Partial<RecordMetadata>>(recordKey(runId), 'json')
    if (value === null) return undefined
    return { run: decodeRunRecord(value), lastSeq: typeof metadata?.lastSeq === 'number' ? metadata.lastSeq : 0 }
  }

  type Listed = { seq: number; name: string; event?: ToolEvent; bytes?: number }
  /** The run's event keys after `after`, in order, at most `limit` of them. */
  async function listEvents(runId: string, after = 0, limit = Infinity): Promise<Listed[]> {
    const found: Listed[] = []
    let cursor: string | undefined
    do {
      const page: KVNamespaceListResult<EventMetadata> = await kv.list<EventMetadata>({ prefix: eventPrefix(runId), ...(cursor ? { cursor } : {}) })
      for (const key of page.keys) {
        const seq = Number(key.name.slice(eventPrefix(runId).length))
        if (seq > after && found.length < limit) found.push({ seq, name: key.name, ...key.metadata })
      }
      cursor = page.list_complete || found.length >= limit ? undefined : page.cursor
    } while (cursor)
    return found
  }

  async function nextSeq(runId: string, recordSeq: number): Promise<number> {
    let last = Math.max(lastSeqs.get(runId) ?? 0, recordSeq)
    if (!lastSeqs.has(runId) || !logBytes.has(runId)) {
      const listed = await listEvents(runId)
      last = Math.max(last, listed.at(-1)?.seq ?? 0)
      logBytes.set(runId, listed.reduce((sum, entry) => sum + (entry.bytes ?? 0), 0))
    }
    return last
  }

  async function writeEvents(runId: string, after: number, events: readonly ToolEvent[], limits?: RunLimits): Promise<SequencedEvent[]> {
    const bodies = events.map((event) => JSON.stringify(event))
    const sizes = bodies.map(jsonBytes)
    const added = sizes.reduce((sum, bytes) => sum + bytes, 0)
    checkRunLimits(limits, { events: after, bytes: logBytes.get(runId) ?? 0 }, events.length, added)
    for (const body of bodies) checkStoredValue(body, storedValueLimits.kvValue)
    const sequenced = events.map((event, index) => ({ seq: after + index + 1, event: structuredClone(event) }))
    await Promise.all(
      sequenced.map(({ seq, event }, index) => {
        const metadata: EventMetadata = { ...(bodies[index]!.length <= metadataEventBytes ? { event } : {}), bytes: sizes[index]! }
        return kv.put(eventKey(runId, seq), bodies[index]!, { ...putOptions, metadata })
      }),
    )
    lastSeqs.set(runId, after + events.length)
    logBytes.set(runId, (logBytes.get(runId) ?? 0) + added)
    return sequenced
  }

  /** A record's text, checked before any of its run's writes. */
  const recordText = (run: RunRecord) => {
    const record = JSON.stringify(run)
    checkStoredValue(record, storedValueLimits.kvValue)
    return record
  }
  const writeRecord = (runId: string, record: string, lastSeq: number) =>
    kv.put(recordKey(runId), record, { ...putOptions, metadata: { lastSeq } satisfies RecordMetadata })

  return {
    exactlyOnce: false,
    create(run, events) {
      return serialised(run.runId, async () => {
        if (await readRecord(run.runId)) throw new Error(`run ${run.runId} exists`)
        lastSeqs.set(run.runId, 0)
        logBytes.set(run.runId, 0)
        const record = recordText(run)
        const written = await writeEvents(run.runId, 0, events)
        await writeRecord(run.runId, record, events.length)
        return written
      })
    },
    get: async (runId) => (await readRecord(runId))?.run,
    transition(runId, from, patch, events = [], when) {
      return serialised(runId, async (): Promise<TransitionResult> => {
        const stored = await readRecord(runId)
        if (!stored) return { ok: false, reason: 'not-found' }
        if (!from.includes(stored.run.status) || (when && !when(stored.run))) return { ok: false, reason: 'conflict', run: stored.run }
        // Through JSON, as every read will see it: a patch's `undefined` removes the field.
        const next = decodeRunRecord(JSON.parse(JSON.stringify({ ...stored.run, ...patch })))
        const record = recordText(next)
        const written = await writeEvents(runId, await nextSeq(runId, stored.lastSeq), events)
        await writeRecord(runId, record, lastSeqs.get(runId) ?? 0)
        return { ok: true, run: next, events: written }
      })
    },
    append(runId, events, limits) {
      return serialised(runId, async () => {
        const stored = await readRecord(runId)
        if (!stored) throw new Error(`run ${runId} does not exist`)
        return writeEvents(runId, await nextSeq(runId, stored.lastSeq), events, limits)
      })
    },
    async size(runId) {
      // A read, not queued behind this run's writes (as `get` and `events` are not).
      const stored = await readRecord(runId)
      if (!stored) return { events: 0, bytes: 0 }
      return { events: await nextSeq(runId, stored.lastSeq), bytes: logBytes.get(runId) ?? 0 }
    },
    async events(runId, after, limit) {
      const listed = await listEvents(runId, after, limit)
      const missing = listed.filter((entry) => !entry.event).map((entry) => entry.name)
      const bodies = new Map<string, string | null>()
      for (let index = 0; index < missing.length; index += bulkGetKeys) {
        for (const [name, body] of await kv.get(missing.slice(index, index + bulkGetKeys), 'text')) bodies.set(name, body)
      }
      // A key listed but already gone (deleted meanwhile) is skipped, not invented.
      return listed.flatMap((entry): SequencedEvent[] => {
        if (entry.event) return [{ seq: entry.seq, event: entry.event }]
        const body = bodies.get(entry.name)
        return typeof body === 'string' ? [{ seq: entry.seq, event: JSON.parse(body) as ToolEvent }] : []
      })
    },
    delete(runId) {
      return serialised(runId, async () => {
        const listed = await listEvents(runId)
        await Promise.all([...listed.map((entry) => kv.delete(entry.name)), kv.delete(recordKey(runId))])
        lastSeqs.delete(runId)
        logBytes.delete(runId)
      })
    },
  }
}
