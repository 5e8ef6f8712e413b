import { decodeIdempotencyRecord } from '../../idempotency/idempotency-record.ts'
import { beginFrom, defaultIdempotencyRetentionMs, type IdempotencyRecord, type IdempotencyScope, type IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import { inlineChars, unlessBusy } from './kv-text.ts'

/**
 * Idempotency keys in Deno KV:
 *
 * - `['toolroute', 'idempotency', name]`: the key's record (`IdempotencyRecord`), where `name` is
 *   `JSON.stringify([principal, key])`. An answer body longer than one value holds is stored in
 *   parts and the record's `answer.body` is `''` with `bodyParts` set.
 * - `['toolroute', 'idempotency', name, 'body', blob, i]`: those parts.
 *
 * Every entry is written with `expireIn` = the retention, so Deno KV forgets a key by itself.
 * `begin` is an atomic commit that checks the record is absent: of racing processes on one
 * database, one claims the key.
 */
export const denoKvIdempotencyPrefix = ['toolroute', 'idempotency'] as const

export interface DenoKvIdempotencyStoreOptions {
  retentionMs?: number
  now?: () => number
}

type StoredRecord = IdempotencyRecord & { bodyParts?: { blob: string; parts: number } }

export function createDenoKvIdempotencyStore(kv: Deno.Kv, options: DenoKvIdempotencyStoreOptions = {}): IdempotencyStore {
  const retentionMs = options.retentionMs ?? defaultIdempotencyRetentionMs
  const now = options.now ?? Date.now
  const keyOf = (scope: IdempotencyScope): Deno.KvKey => [...denoKvIdempotencyPrefix, JSON.stringify([scope.principal, scope.key])]
  const expireIn = (record: { createdAt: number }) => Math.max(1, record.createdAt + retentionMs - now())

  async function read(key: Deno.KvKey): Promise<{ entry: Deno.KvEntryMaybe<unknown>; record: IdempotencyRecord | undefined }> {
    const entry = await unlessBusy(() => kv.get<unknown>(key))
    if (entry.value === null) return { entry, record: undefined }
    const stored = entry.value as StoredRecord
    // Decoding drops `bodyParts`: the record then gets its body back from the parts.
    const record = decodeIdempotencyRecord(stored)
    if (record.createdAt + retentionMs <= now()) return { entry, record: undefined }
    if (record.state === 'done' && stored.bodyParts) {
      const parts: string[] = []
      for await (const part of kv.list<string>({ prefix: [...key, 'body', stored.bodyParts.blob] })) parts.push(part.value)
      if (parts.length !== stored.bodyParts.parts) throw new Error('toolroute: an idempotent answer lost a part')
      record.answer.body = parts.join('')
    }
    return { entry, record }
  }

  return {
    async begin(scope, fingerprint) {
      const key = keyOf(scope)
      while (true) {
        const { entry, record } = await read(key)
        if (record) return beginFrom(record, fingerprint)
        const claimed: IdempotencyRecord = { state: 'pending', fingerprint, createdAt: now() }
        const result = await unlessBusy(() => kv.atomic().check(entry).set(key, claimed, { expireIn: retentionMs }).commit())
        if (result.ok) return { state: 'new' }
        // Another process claimed it between the read and the commit: read what it wrote.
      }
    },
    async complete(scope, fingerprint, answer) {
      const key = keyOf(scope)
      const { entry, record } = await read(key)
      if (record?.state !== 'pending' || record.fingerprint !== fingerprint) return
      const done: StoredRecord = { state: 'done', fingerprint, createdAt: record.createdAt, answer }
      if (answer.body.length > inlineChars) {
        const blob = crypto.randomUUID()
        const parts = Math.ceil(answer.body.length / inlineChars)
        for (let index = 0; index < parts; index += 10) {
          const commit = kv.atomic()
          for (let part = index; part < Math.min(parts, index + 10); part++) {
            commit.set([...key, 'body', blob, part], answer.body.slice(part * inlineChars, (part + 1) * inlineChars), { expireIn: expireIn(record) })
          }
          await unlessBusy(() => commit.commit())
        }
        done.answer = { ...answer, body: '' }
        done.bodyParts = { blob, parts }
      }
      await unlessBusy(() => kv.atomic().check(entry).set(key, done, { expireIn: expireIn(record) }).commit())
    },
    async release(scope, fingerprint) {
      const key = keyOf(scope)
      const { entry, record } = await read(key)
      if (record?.state === 'pending' && record.fingerprint === fingerprint) await unlessBusy(() => kv.atomic().check(entry).delete(key).commit())
    },
  }
}
