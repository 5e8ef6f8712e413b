import { decodeIdempotencyRecord } from '../../idempotency/idempotency-record.ts'
import { beginFrom, defaultIdempotencyRetentionMs, type IdempotencyLease, type IdempotencyRecord, type IdempotencyScope, type IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import { liveRecord } from '../../idempotency/interrupted-call.ts'
import { defaultLeaseMs } from '../../runs/default-lease-ms.ts'
import { readText, stageText, unlessBusy } from './kv-text.ts'

/**
 * Idempotency keys in Deno KV:
 * - `['toolroute', 'idempotency', name]`: the key's record (`IdempotencyRecord`), `name` being
 *   `JSON.stringify([principal, key])`. An answer body too long for one value is stored in parts:
 *   the record's `answer.body` is then `''`, with `bodyParts` set.
 * - `['toolroute', 'idempotency', name, 'body', blob, i]`: those parts.
 *
 * Every entry is written with `expireIn` = the retention, so Deno KV forgets a key by itself. `begin`
 * is an atomic commit that checks the record is absent, so of racing processes one claims the key. A
 * lease's renewal and the settling of a lapsed one each check the record is unchanged: never both win.
 * A lapse is found by the sweep `schedule` asks for at the lease's end, or by the next request with the key.
 */
export const denoKvIdempotencyPrefix = ['toolroute', 'idempotency'] as const

export interface DenoKvIdempotencyStoreOptions {
  retentionMs?: number
  /** How long a first request's lease lasts unrenewed (default 30 s). */
  leaseMs?: number
  /** Asks for `sweep(id)` at a time (the Deno KV queue scheduler). */
  schedule?: (id: string, at: number) => Promise<void>
  /** Stores the failed run a call cut off by a crash leaves. */
  onInterrupted?: (lease: IdempotencyLease) => Promise<void>
  now?: () => number
}

/** The ids this store schedules sweeps under: never a run id (a UUID). */
export const denoKvKeySweepPrefix = 'idempotency:'

/** The Deno KV key store, and the sweep its scheduled ids (`denoKvKeySweepPrefix`) run. */
export interface DenoKvIdempotencyStore extends IdempotencyStore {
  sweep(id: string): Promise<void>
}

type StoredRecord = IdempotencyRecord & { bodyParts?: { blob: string; parts: number } }
/** Where a key's answer body is kept in parts when it is too long for one value. */
const bodyOf = (key: Deno.KvKey): Deno.KvKey => [...key, 'body']

export function createDenoKvIdempotencyStore(kv: Deno.Kv, options: DenoKvIdempotencyStoreOptions = {}): DenoKvIdempotencyStore {
  const retentionMs = options.retentionMs ?? defaultIdempotencyRetentionMs
  const leaseMs = options.leaseMs ?? defaultLeaseMs
  const now = options.now ?? Date.now
  const nameOf = (scope: IdempotencyScope) => JSON.stringify([scope.principal, scope.key])
  const keyOf = (scope: IdempotencyScope): Deno.KvKey => [...denoKvIdempotencyPrefix, nameOf(scope)]
  const watch = (name: string, at: number) => options.schedule?.(`${denoKvKeySweepPrefix}${name}`, at)
  const expireIn = (record: { createdAt: number }) => Math.max(1, record.createdAt + retentionMs - now())
  /**
   * The key's record as it stands now. A lapsed lease is settled as interrupted first, if the record is
   * still the one read (of racing settlers one wins, and stores the run the call leaves), then read again.
   */
  async function read(key: Deno.KvKey): Promise<{ key: Deno.KvKey; entry: Deno.KvEntryMaybe<unknown>; record: IdempotencyRecord | undefined }> {
    while (true) {
      const entry = await unlessBusy(() => kv.get<unknown>(key))
      const stored = entry.value === null ? undefined : (entry.value as StoredRecord)
      // Decoding drops `bodyParts`: the record then gets its body back from the parts.
      const { record, interrupted } = liveRecord(stored && decodeIdempotencyRecord(stored), now(), retentionMs)
      if (interrupted) {
        const settled = await unlessBusy(() => kv.atomic().check(entry).set(key, record, { expireIn: expireIn(record) }).commit())
        const failed = (error: unknown) => console.error(`toolroute: the run of interrupted call ${interrupted.runId} could not be stored`, error)
        if (settled.ok) await options.onInterrupted?.(interrupted).catch(failed)
        continue
      }
      if (record?.state === 'done' && stored?.bodyParts) {
        const body = await readText(kv, bodyOf(key), stored.bodyParts)
        if (body === undefined) throw new Error('toolroute: an idempotent answer lost a part')
        record.answer.body = body
      }
      return { key, entry, record }
    }
  }

  return {
    async begin(scope, fingerprint, claim) {
      const key = keyOf(scope)
      while (true) {
        const { entry, record } = await read(key)
        if (record) return beginFrom(record, fingerprint)
        const createdAt = now()
        const claimed: IdempotencyRecord = { state: 'pending', fingerprint, createdAt, ...(claim ? { lease: { ...claim, until: createdAt + leaseMs } } : {}) }
        const result = await unlessBusy(() => kv.atomic().check(entry).set(key, claimed, { expireIn: retentionMs }).commit())
        if (!result.ok) continue // Another process claimed it between the read and the commit: read what it wrote.
        if (!claim) return { state: 'new' }
        await watch(nameOf(scope), createdAt + leaseMs)
        return { state: 'new', renewEveryMs: leaseMs / 3 }
      }
    },
    async renew(scope, fingerprint) {
      const { key, entry, record } = await read(keyOf(scope))
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint || !record.lease) return false
      // The scheduled sweep stays where it is: due at the old lease's end, it finds the lease renewed and looks again later.
      const renewed: IdempotencyRecord = { ...record, lease: { ...record.lease, until: now() + leaseMs } }
      return (await unlessBusy(() => kv.atomic().check(entry).set(key, renewed, { expireIn: expireIn(record) }).commit())).ok
    },
    async sweep(id) {
      const name = id.slice(denoKvKeySweepPrefix.length)
      // Reading settles a lapsed lease; one renewed meanwhile is looked at again at its new end.
      const { record } = await read([...denoKvIdempotencyPrefix, name])
      if (record?.state === 'pending' && record.lease) await watch(name, record.lease.until)
    },
    async complete(scope, fingerprint, answer) {
      const { key, entry, record } = await read(keyOf(scope))
      // A lapsed lease is no longer this request's: reading settled it as interrupted, as every store does.
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint) return
      const body = await stageText(kv, bodyOf(key), answer.body, expireIn(record))
      const done: StoredRecord = typeof body === 'string'
        ? { state: 'done', fingerprint, createdAt: record.createdAt, answer }
        : { state: 'done', fingerprint, createdAt: record.createdAt, answer: { ...answer, body: '' }, bodyParts: body }
      await unlessBusy(() => kv.atomic().check(entry).set(key, done, { expireIn: expireIn(record) }).commit())
    },
    async release(scope, fingerprint) {
      const { key, entry, record } = await read(keyOf(scope))
      if (record?.state === 'pending' && record.fingerprint === fingerprint) await unlessBusy(() => kv.atomic().check(entry).delete(key).commit())
    },
  }
}
