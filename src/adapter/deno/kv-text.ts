/**
 * JSON text in Deno KV, whatever its size. A KV value holds at most 64 KiB and one atomic commit at
 * most 800 KiB, while a run's input alone may be 1 MiB: text up to `inlineChars` is stored as the value
 * itself; longer text is written first, in parts under a fresh blob key, and the value only names the
 * blob. Parts are written before the commit that refers to them, so no reference precedes its parts.
 */

/** A stored text: inline, or a reference to `parts` strings under `[...blobs, blob, i]`. */
export type StoredText = string | { blob: string; parts: number }

/** Characters per value: one byte each when Latin-1 and two otherwise, so under 64 KiB either way. */
const inlineChars = 30_000
/** Parts written per atomic commit (under the 800 KiB commit limit). */
const partsPerCommit = 10
/** Tries of a write that finds the database busy before the error is passed on. */
const busyTries = 100

/**
 * Deno KV on a local SQLite file that several processes write at once reports SQLite's BUSY as an
 * error with this text, and only that way; the write did not happen, so it is retried.
 */
const isBusy = (error: unknown) => error instanceof Error && /database is locked|database is busy/i.test(error.message)

/** Runs `attempt` until it answers, retrying (with a short random pause) while the database is busy. */
export async function unlessBusy<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt()
    } catch (error) {
      if (!isBusy(error) || tries >= busyTries) throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * tries)))
    }
  }
}

/** Whether a value read from KV is a `StoredText`. */
export function isStoredText(value: unknown): value is StoredText {
  if (typeof value === 'string') return true
  if (typeof value !== 'object' || value === null) return false
  const { blob, parts } = value as { blob?: unknown; parts?: unknown }
  return typeof blob === 'string' && typeof parts === 'number' && Number.isInteger(parts) && parts > 0
}

/** Stores `text` for a later commit: inline, or as a blob under `blobs` written now. */
export async function stageText(kv: Deno.Kv, blobs: Deno.KvKey, text: string, expireIn?: number): Promise<StoredText> {
  if (text.length <= inlineChars) return text
  const blob = crypto.randomUUID().replaceAll('-', '')
  const parts = Math.ceil(text.length / inlineChars)
  for (let first = 0; first < parts; first += partsPerCommit) {
    const commit = kv.atomic()
    for (let index = first; index < Math.min(parts, first + partsPerCommit); index++) {
      commit.set([...blobs, blob, index], text.slice(index * inlineChars, (index + 1) * inlineChars), expireIn ? { expireIn } : {})
    }
    const result = await unlessBusy(() => commit.commit())
    if (!result.ok) throw new Error(`Deno KV refused the parts of blob ${blob}`)
  }
  return { blob, parts }
}

/** The text a `StoredText` holds; `undefined` when a part is missing (the blob was replaced: read the value again). */
export async function readText(kv: Deno.Kv, blobs: Deno.KvKey, stored: StoredText): Promise<string | undefined> {
  if (typeof stored === 'string') return stored
  const parts: string[] = []
  const entries = await unlessBusy(() => Array.fromAsync(kv.list<string>({ prefix: [...blobs, stored.blob] })))
  for (const entry of entries) {
    if (typeof entry.value !== 'string' || entry.key.at(-1) !== parts.length) return undefined
    parts.push(entry.value)
  }
  return parts.length === stored.parts ? parts.join('') : undefined
}

/** Deletes the blob a `StoredText` refers to, if any (after the commit that dropped the reference). */
export async function dropText(kv: Deno.Kv, blobs: Deno.KvKey, stored: StoredText | undefined): Promise<void> {
  if (stored !== undefined && typeof stored !== 'string') await deletePrefix(kv, [...blobs, stored.blob])
}

/** Deletes every key under `prefix`, in commits of a few hundred keys. */
export async function deletePrefix(kv: Deno.Kv, prefix: Deno.KvKey): Promise<void> {
  let commit = kv.atomic()
  let pending = 0
  for await (const entry of kv.list({ prefix })) {
    commit.delete(entry.key)
    if (++pending === 500) {
      await unlessBusy(() => commit.commit())
      commit = kv.atomic()
      pending = 0
    }
  }
  if (pending > 0) await unlessBusy(() => commit.commit())
}
