import type { RunStatus, RunSummary } from '../protocol/call-result.ts'

/** A page's size when the caller names none, and at most (SPEC §16). */
export const runListLimits = { default: 20, max: 100 } as const

/** A run as its principal's index keeps it: its summary (SPEC §16), and whether it runs in the background (MCP's tasks). */
export interface RunIndexEntry extends RunSummary {
  background?: boolean
}

/** Which of a principal's runs to list (`GET /runs`, MCP `tasks/list`), and from where. */
export interface RunQuery {
  /** Any of these statuses; all when absent. */
  statuses?: readonly RunStatus[]
  toolId?: string
  background?: boolean
  /** A `nextCursor` of an earlier page of the same query. */
  cursor?: string
  limit: number
}

/**
 * One page of a principal's runs, newest first. A backend that filters as it reads (KV, Deno KV)
 * reads a bounded number of entries per page, so a filtered page may hold fewer than `limit` runs
 * while `nextCursor` says more may follow.
 */
export interface RunIndexPage {
  runs: RunIndexEntry[]
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string
}

/**
 * Every kept run of each principal, with what listing filters on (`runIndexEntryOf`), kept beside the
 * runs, which a store reads by id only: the engine's store puts each run in when created and again
 * at each status change (`withIndexedStore`), and removes it when deleted. Runs without a principal
 * are not indexed: listing them would hand one anonymous caller's runs to another.
 */
export interface RunIndex {
  /** Adds the run, or replaces its entry (same `runId` and `createdAt`) with a newer one. */
  put(principal: string, entry: RunIndexEntry): Promise<void>
  remove(principal: string, entry: Pick<RunIndexEntry, 'runId' | 'createdAt'>): Promise<void>
  /** A cursor this index did not hand out reads as the start. */
  list(principal: string, query: RunQuery): Promise<RunIndexPage>
}

/** What a run store's wrapper writes to an index (`withIndexedStore`); without `put`, the store writes each entry itself (Deno KV: in the run's own commit); a Durable Object's `put` sends what its store's transaction wrote. */
export type RunIndexWrites = Pick<RunIndex, 'remove'> & Partial<Pick<RunIndex, 'put'>>
