import type { RunIndexEntry, RunQuery } from './run-index.ts'
import type { RunRecord } from './run-record.ts'
import { runSummaryOf } from './run-summary-of.ts'

/** Whether an index entry is one a query asks for (backends that filter in code). */
export function matchesRunQuery(entry: RunIndexEntry, query: RunQuery): boolean {
  return (
    (query.statuses === undefined || query.statuses.includes(entry.status)) &&
    (query.toolId === undefined || entry.toolId === query.toolId) &&
    (query.background === undefined || (entry.background === true) === query.background)
  )
}

/** What the index keeps of a run. */
export function runIndexEntryOf(run: RunRecord): RunIndexEntry {
  return { ...runSummaryOf(run), ...(run.background ? { background: true } : {}) }
}

/** Whether a write changes what the index keeps of a run: a run created (no `patch`), a new status, approval or expiry (not a lease renewed or a question asked). */
export const changesListing = (patch?: Partial<RunRecord>) => !patch || patch.status !== undefined || patch.approvalId !== undefined || patch.expiresAt !== undefined

/** How many entries a backend that filters as it reads looks at for one page at most. */
export const scannedPerPage = 1000
