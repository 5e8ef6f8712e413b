import type { RunRecord } from './run-record.ts'

/** A step's hold on its running run (SPEC §12 "Crash recovery"). */
export interface RunLease {
  /** Whether the stored run is still this lease's: the condition of the holder's own transitions. */
  holds(run: RunRecord): boolean
  /** Stops renewing, once a renewal under way has landed, so the holder's last transition sees its lease. */
  release(): Promise<void>
}

/**
 * Renews `run`'s lease every `everyMs` while its step executes, each a compare-and-set on the lease:
 * one refused (the run settled, or was taken over) tells `onLost`. One that throws is tried again next tick.
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
