/**
 * The run engine's `schedule` on Deno, as a Durable Object's alarm is on Workers. Each run has at most one
 * pending sweep, kept at `['toolroute', 'schedule', runId]` as `{ at, id }` (a later `schedule` replaces it,
 * as `setAlarm` does), and sent as a delayed queue message `{ toolroute: 'sweep', runId, id }` in the same
 * commit (`scheduleIn`: another write's commit), which reaches whichever process listens, after a restart
 * too; a message whose `id` is no longer the pending one is stale and dropped. A process that dies handling a
 * message may lose it (the SQLite backend was not seen to deliver it again), so `start` sends again every due
 * sweep no live handler claimed. A handler claims its sweep in one atomic commit and renews the claim while
 * it runs, so two processes never run one sweep at once. Every read and write retries while SQLite reports
 * the file busy (several processes on one database), as the stores do (`unlessBusy`).
 */

/** Deno KV refuses queue delays over 30 days; a later sweep is sent in hops. */
const maxDelayMs = 30 * 24 * 60 * 60 * 1000 - 60_000
/** A claim not renewed for this long belongs to a handler that died. */
const defaultClaimTimeoutMs = 60_000
/** A sweep that throws is tried again, as a Durable Object retries a failed alarm: this often, the delay doubling. */
const maxRetries = 5
const retryBaseMs = 500

import { unlessBusy } from './kv-text.ts'

const denoKvSchedulePrefix = ['toolroute', 'schedule'] as const

/** A run's pending sweep; `claimedAt` (ms) once a handler claimed it, `retries` the times it threw before. */
type PendingSweep = { at: number; id: string; claimedAt?: number; retries?: number }
type SweepMessage = { toolroute: 'sweep'; runId: string; id: string }

const isPendingSweep = (value: unknown): value is PendingSweep =>
  typeof value === 'object' && value !== null && typeof (value as PendingSweep).at === 'number' && typeof (value as PendingSweep).id === 'string'

const isSweepMessage = (value: unknown): value is SweepMessage =>
  typeof value === 'object' && value !== null && (value as SweepMessage).toolroute === 'sweep' && typeof (value as SweepMessage).runId === 'string' && typeof (value as SweepMessage).id === 'string'

export interface DenoKvSchedulerOptions {
  claimTimeoutMs?: number
}

/** Durable `schedule(runId, at)` → `sweep(runId)` over a Deno KV database and its queue. */
export interface DenoKvScheduler {
  schedule(runId: string, at: number): Promise<void>
  /** `schedule`'s writes added to `operation`: the sweep is scheduled if, and when, that commits. */
  scheduleIn(operation: Deno.AtomicOperation, runId: string, at: number): Deno.AtomicOperation
  /**
   * Listens to the database's queue and sends again the sweeps a crash left behind. Call it once
   * per `Deno.Kv` handle: a handle delivers its queue to its first listener only.
   */
  start(sweep: (runId: string) => Promise<void>): Promise<void>
}

export function createDenoKvScheduler(kv: Deno.Kv, options: DenoKvSchedulerOptions = {}): DenoKvScheduler {
  const claimTimeoutMs = options.claimTimeoutMs ?? defaultClaimTimeoutMs
  const keyOf = (runId: string): Deno.KvKey => [...denoKvSchedulePrefix, runId]

  const messageOf = (runId: string, pending: PendingSweep) => [{ toolroute: 'sweep', runId, id: pending.id } satisfies SweepMessage, { delay: Math.min(maxDelayMs, Math.max(0, pending.at - Date.now())) }] as const
  const send = (runId: string, pending: PendingSweep) => unlessBusy(() => kv.enqueue(...messageOf(runId, pending)))
  const scheduleIn = (operation: Deno.AtomicOperation, runId: string, at: number) => {
    const pending: PendingSweep = { at, id: crypto.randomUUID() }
    return operation.set(keyOf(runId), pending).enqueue(...messageOf(runId, pending))
  }

  async function handle(message: SweepMessage, sweep: (runId: string) => Promise<void>) {
    const key = keyOf(message.runId)
    const entry = await unlessBusy(() => kv.get<unknown>(key))
    if (!isPendingSweep(entry.value) || entry.value.id !== message.id || entry.value.claimedAt !== undefined) return
    // Sent early (a delay longer than the queue allows): hop again.
    if (entry.value.at > Date.now()) return void (await send(message.runId, entry.value))
    const pending = entry.value
    const claim = await unlessBusy(() => kv.atomic().check(entry).set(key, { ...pending, claimedAt: Date.now() }).commit())
    if (!claim.ok) return
    // Renewed while the sweep runs (a background attempt can take minutes), unless it scheduled the next one.
    let claimStamp = claim.versionstamp
    let renewing: Promise<unknown> = Promise.resolve()
    const renew = setInterval(() => {
      renewing = renewing.then(async () => {
        const renewed = await unlessBusy(() => kv.atomic().check({ key, versionstamp: claimStamp }).set(key, { ...pending, claimedAt: Date.now() }).commit())
        if (renewed.ok) claimStamp = renewed.versionstamp
      }).catch(() => {})
    }, claimTimeoutMs / 3)
    let next: PendingSweep | undefined
    try {
      await sweep(message.runId)
    } catch (error) {
      const retries = (pending.retries ?? 0) + 1
      console.error(`toolroute: the sweep of run ${message.runId} failed${retries <= maxRetries ? '; it will be tried again' : ''}`, error)
      if (retries <= maxRetries) next = { at: Date.now() + retryBaseMs * 2 ** (retries - 1), id: crypto.randomUUID(), retries }
    } finally {
      clearInterval(renew)
      await renewing
    }
    // Done, unless the sweep scheduled the next one meanwhile (then the key holds that one and the check fails).
    const operation = kv.atomic().check({ key, versionstamp: claimStamp })
    const done = await unlessBusy(() => (next ? operation.set(key, next) : operation.delete(key)).commit())
    if (done.ok && next) await send(message.runId, next)
  }

  return {
    async schedule(runId, at) {
      await unlessBusy(() => scheduleIn(kv.atomic(), runId, at).commit())
    },
    scheduleIn,
    async start(sweep) {
      // Settles when the database closes; a second listener on one handle receives nothing.
      kv.listenQueue(async (message: unknown) => {
        if (!isSweepMessage(message)) return
        try {
          await handle(message, sweep)
        } catch (error) {
          // The database itself failed: the entry stays, and the next start sends it again.
          console.error(`toolroute: the scheduled sweep of run ${message.runId} could not run`, error)
        }
      }).catch((error) => console.error('toolroute: the Deno KV queue listener stopped', error))
      for (const entry of await unlessBusy(() => Array.fromAsync(kv.list<unknown>({ prefix: denoKvSchedulePrefix })))) {
        const runId = entry.key.at(-1)
        if (typeof runId !== 'string' || !isPendingSweep(entry.value)) continue
        const { at, claimedAt } = entry.value
        if (claimedAt === undefined ? at > Date.now() : Date.now() - claimedAt < claimTimeoutMs) continue
        // Due and unhandled, or claimed by a handler that died: a fresh id, so only this send counts.
        const retry: PendingSweep = { at, id: crypto.randomUUID() }
        const reset = await unlessBusy(() => kv.atomic().check(entry).set(entry.key, retry).commit())
        if (reset.ok) await send(runId, retry)
      }
    },
  }
}
