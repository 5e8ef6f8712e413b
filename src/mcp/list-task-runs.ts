import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunCaller, RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'

/**
 * A page of the caller's background runs (MCP's tasks) from the one run index `GET /runs` reads, each
 * read back (its state, never its events) for what a task tells: its message, its time to live.
 */
export async function listTaskRuns(runs: RunHost, caller: RunCaller, cursor: string | undefined): Promise<{ runs: RunRecord[]; nextCursor?: string }> {
  if (!runs.list) return { runs: [] }
  const page = await runs.list(caller, { background: true, ...(cursor !== undefined ? { cursor } : {}) })
  const read = await Promise.all(
    page.runs.map(async (entry): Promise<RunRecord | undefined> => {
      try {
        return (await runs.get(entry.runId, caller)).run
      } catch (error) {
        // Deleted meanwhile (or, with a custom principal rule, no longer this caller's).
        if (!ToolrouteError.isInstance(error) || error.code !== 'RUN_NOT_FOUND') throw error
        return undefined
      }
    }),
  )
  return { runs: read.filter((run): run is RunRecord => run !== undefined), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) }
}
