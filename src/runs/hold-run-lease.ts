import type { RunRecord } from './run-record.ts'

/** A step's hold on its running run (SPEC §12 "Crash recovery"). */
export interface RunLease {
  /** Whether the stored run is still this lease's: the condition of the holder's own transitions. */
  holds(run: RunRecord): boolean
  /** Stops renewing, once a renewal under way has landed, so the holder's last transition sees its lease. */
  release(): Promise<void>
}

/**
 * Renews the lease of `run` (its `leaseUntil`, as its last transition stamped it) every
 * `everyMs` while its step executes. Each renewal is a compare-and-set on the lease itself: one
 * refused means the run was settled, or taken over by whoever found the lease lapsed, and
 * `onLost` is told (the step is then aborted: whatever it still does stores nothing). A renewal
 * that throws (the store failed) is tried again at the next tick; the lease lapses if none lands.
 */
export function holdRunLease(
  run: RunRecord,
  everyMs: number,
  renew: (run: RunRecord, holds: (stored: RunRecord) => boolean) => Promise<RunRecord | undefined>,
  onLost: () => void,
): RunLease {
  let current = run
  let renewing: Promise<void> = Promise.resolve()
  const holds = (stored: RunRecord) => stored.leaseUntil === current.leaseUntil
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      const renewed = await renew(current, holds).catch(() => current)
      if (renewed) current = renewed
      else {
        clearInterval(timer)
        onLost()
      }
    })
  }, everyMs)
  return {
    holds,
    async release() {
      clearInterval(timer)
      await renewing
    },
  }
}
