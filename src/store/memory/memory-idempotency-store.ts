import { beginFrom, defaultIdempotencyRetentionMs, type IdempotencyRecord, type IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import { liveRecord } from '../../idempotency/interrupted-call.ts'
import { defaultLeaseMs } from '../../runs/default-lease-ms.ts'

export interface MemoryIdempotencyStoreOptions {
  /** How long a key is kept, from its first request (default 24 h). */
  retentionMs?: number
  /** How long a first request's lease lasts unrenewed (default 30 s). */
  leaseMs?: number
  now?: () => number
}

/**
 * Keys in a `Map`, for one process: no `await` between a read and its write, so `begin` is a
 * compare-and-set. Expired keys are dropped when met and swept as the map grows; a lapsed lease is settled when met.
 */
export function createMemoryIdempotencyStore(options: MemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  const retentionMs = options.retentionMs ?? defaultIdempotencyRetentionMs
  const leaseMs = options.leaseMs ?? defaultLeaseMs
  const now = options.now ?? Date.now
  const records = new Map<string, IdempotencyRecord>()
  let sweepAt = 1024
  const nameOf = (scope: { principal: string | null; key: string }) => JSON.stringify([scope.principal, scope.key])
  const live = (name: string): IdempotencyRecord | undefined => {
    const { record, interrupted } = liveRecord(records.get(name), now(), retentionMs)
    if (!record) records.delete(name)
    else if (interrupted) records.set(name, record)
    return record
  }
  const sweep = () => {
    if (records.size < sweepAt) return
    for (const name of records.keys()) live(name)
    sweepAt = Math.max(1024, records.size * 2)
  }
  return {
    async begin(scope, fingerprint, claim) {
      const name = nameOf(scope)
      const record = live(name)
      if (record) return beginFrom(record, fingerprint)
      sweep()
      const at = now()
      records.set(name, { state: 'pending', fingerprint, createdAt: at, ...(claim ? { lease: { ...claim, until: at + leaseMs } } : {}) })
      return claim ? { state: 'new', renewEveryMs: leaseMs / 3 } : { state: 'new' }
    },
    async renew(scope, fingerprint) {
      const name = nameOf(scope)
      const record = live(name)
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint || !record.lease) return false
      records.set(name, { ...record, lease: { ...record.lease, until: now() + leaseMs } })
      return true
    },
    async complete(scope, fingerprint, answer) {
      const name = nameOf(scope)
      const record = records.get(name)
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint) return
      records.set(name, { state: 'done', fingerprint, createdAt: record.createdAt, answer: structuredClone(answer) })
    },
    async release(scope, fingerprint) {
      const name = nameOf(scope)
      const record = records.get(name)
      if (record?.state === 'pending' && record.fingerprint === fingerprint) records.delete(name)
    },
  }
}
