import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { RunHost } from './run-host.ts'
import type { RunIndex } from './run-index.ts'
import type { RunRecord } from './run-record.ts'

/**
 * A run host that also lists a principal's background runs (`list`, MCP's tasks): each one it opens
 * with a principal is added to `index` once stored. Only those, as nothing lists the others and
 * each would cost a second write. Listing reads each run back through the host, so only its principal sees it.
 */
export function withRunIndex(host: RunHost, index: RunIndex): RunHost {
  return {
    ...host,
    async open(run, events) {
      await host.open(run, events)
      if (run.principal !== null && run.background === true) await index.add(run.principal, run.runId, run.createdAt)
    },
    async list(caller, page = {}) {
      if (caller.principal === null) return { runs: [] }
      // Each run's state read back together (never its events).
      const limit = Math.min(Math.max(page.limit ?? 20, 1), 100)
      const ids = await index.list(caller.principal, { limit, ...(page.cursor !== undefined ? { cursor: page.cursor } : {}) })
      const read = await Promise.all(
        ids.runIds.map(async (runId): Promise<RunRecord | undefined> => {
          try {
            return (await host.get(runId, caller)).run
          } catch (error) {
            // Deleted after its retention (or, with a custom principal rule, no longer this caller's).
            if (!ToolrouteError.isInstance(error) || error.code !== 'RUN_NOT_FOUND') throw error
            return undefined
          }
        }),
      )
      const runs = read.filter((run): run is RunRecord => run !== undefined)
      return { runs, ...(ids.nextCursor !== undefined ? { nextCursor: ids.nextCursor } : {}) }
    },
  }
}
