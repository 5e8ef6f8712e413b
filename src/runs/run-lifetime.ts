import { settledStatuses, waitingStatuses, type RunRecord } from './run-record.ts'

export const defaultRunTtlMs = 24 * 60 * 60 * 1000

/**
 * The times of a run's life: how long it may wait for a human (`ttlMs`), how long it is kept
 * once settled (`retentionMs`), and the one time each state next needs a sweep at. Pure: the
 * engine applies what it answers.
 */
export interface RunLifetime {
  readonly ttlMs: number
  readonly retentionMs: number
  /** A patch as stored at `now`: `updatedAt`, and a wait's deadline set (or dropped) when the status changes. */
  stamp(patch: Partial<RunRecord>, now: number): Partial<RunRecord>
  /** A run as `open` stores it: a waiting run gets its deadline. */
  opened(run: RunRecord, now: number): RunRecord
  /** A waiting run whose time to live is over (it is to be `expired`). */
  isExpired(run: RunRecord, now: number): boolean
  /** A settled run past retention (it is gone, whether or not a sweep deleted it yet). */
  isGone(run: RunRecord, now: number): boolean
  /** When the run next needs `sweep`: its expiry while it waits, its deletion once settled. */
  sweepAt(run: RunRecord): number | undefined
  /**
   * The sweep of a step at work (`running`, foreground): a time to live from now, so a sweep
   * elsewhere (Deno KV) never fails a step still at work, and a step whose process died fails
   * within a TTL.
   */
  stepWatchAt(now: number): number
}

const iso = (ms: number) => new Date(ms).toISOString()

export function createRunLifetime(options: { ttlMs?: number; retentionMs?: number } = {}): RunLifetime {
  const ttlMs = options.ttlMs ?? defaultRunTtlMs
  const retentionMs = options.retentionMs ?? defaultRunTtlMs
  return {
    ttlMs,
    retentionMs,
    stamp(patch, now) {
      if (patch.status === undefined) return { ...patch, updatedAt: iso(now) }
      return { ...patch, updatedAt: iso(now), expiresAt: waitingStatuses.includes(patch.status) ? iso(now + ttlMs) : undefined }
    },
    opened(run, now) {
      return waitingStatuses.includes(run.status) ? { ...run, expiresAt: iso(now + ttlMs) } : run
    },
    isExpired(run, now) {
      return waitingStatuses.includes(run.status) && run.expiresAt !== undefined && Date.parse(run.expiresAt) <= now
    },
    isGone(run, now) {
      return settledStatuses.includes(run.status) && Date.parse(run.updatedAt) + retentionMs <= now
    },
    sweepAt(run) {
      if (waitingStatuses.includes(run.status)) return run.expiresAt ? Date.parse(run.expiresAt) : undefined
      return settledStatuses.includes(run.status) ? Date.parse(run.updatedAt) + retentionMs : undefined
    },
    stepWatchAt(now) {
      return now + ttlMs
    },
  }
}
