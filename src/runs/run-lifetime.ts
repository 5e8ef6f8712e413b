import { defaultLeaseMs } from './default-lease-ms.ts'
import { settledStatuses, waitingStatuses, type RunRecord } from './run-record.ts'

export const defaultRunTtlMs = 24 * 60 * 60 * 1000

/**
 * The times of a run's life (`ttlMs` waiting, `retentionMs` once settled, `leaseMs` of a step at
 * work) and when each state next needs a sweep. Pure: the engine applies what it answers.
 */
export interface RunLifetime {
  readonly leaseMs: number
  /**
   * A patch as stored at `now` for a run then `status`: `updatedAt`; a wait's deadline set or dropped
   * when the status changes; a running run's lease renewed (any transition is a sign of life).
   */
  stamp(patch: Partial<RunRecord>, now: number, status?: RunRecord['status']): Partial<RunRecord>
  /** A run as `open` stores it: a waiting run gets its deadline. */
  opened(run: RunRecord, now: number): RunRecord
  /** A waiting run whose time to live is over (it is to be `expired`). */
  isExpired(run: RunRecord, now: number): boolean
  /** A settled run past retention (it is gone, whether or not a sweep deleted it yet). */
  isGone(run: RunRecord, now: number): boolean
  /** A running run whose lease was not renewed in time: whoever executed it is gone. */
  isLapsed(run: RunRecord, now: number): boolean
  /** When the run next needs `sweep`: its expiry while it waits, its lease's end while it runs, its deletion once settled. */
  sweepAt(run: RunRecord): number | undefined
}

const iso = (ms: number) => new Date(ms).toISOString()

export function createRunLifetime(options: { ttlMs?: number; retentionMs?: number; leaseMs?: number } = {}): RunLifetime {
  const ttlMs = options.ttlMs ?? defaultRunTtlMs
  const retentionMs = options.retentionMs ?? defaultRunTtlMs
  const leaseMs = options.leaseMs ?? defaultLeaseMs
  return {
    leaseMs,
    stamp(patch, now, status = patch.status) {
      // A patch that names the lease (a retry gives it up) keeps what it says.
      const lease = 'leaseUntil' in patch ? {} : status === 'running' ? { leaseUntil: iso(now + leaseMs) } : patch.status !== undefined ? { leaseUntil: undefined } : {}
      if (patch.status === undefined) return { ...patch, updatedAt: iso(now), ...lease }
      return { ...patch, updatedAt: iso(now), expiresAt: waitingStatuses.includes(patch.status) ? iso(now + ttlMs) : undefined, ...lease }
    },
    opened(run, now) {
      return { ...run, history: [{ status: run.status, at: iso(now) }], ...(waitingStatuses.includes(run.status) ? { expiresAt: iso(now + ttlMs) } : {}) }
    },
    isExpired(run, now) {
      return waitingStatuses.includes(run.status) && run.expiresAt !== undefined && Date.parse(run.expiresAt) <= now
    },
    isGone(run, now) {
      return settledStatuses.includes(run.status) && Date.parse(run.updatedAt) + retentionMs <= now
    },
    isLapsed(run, now) {
      return run.status === 'running' && (run.leaseUntil === undefined || Date.parse(run.leaseUntil) <= now)
    },
    sweepAt(run) {
      if (waitingStatuses.includes(run.status)) return run.expiresAt ? Date.parse(run.expiresAt) : undefined
      if (run.status === 'running') return run.leaseUntil ? Date.parse(run.leaseUntil) : undefined
      return settledStatuses.includes(run.status) ? Date.parse(run.updatedAt) + retentionMs : undefined
    },
  }
}
