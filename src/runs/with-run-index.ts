import type { RunHost } from './run-host.ts'
import { runListLimits, type RunIndex } from './run-index.ts'

/**
 * A run host that lists its principals' runs (`list`: `GET /runs`, MCP's tasks) from `index`, the one
 * its engine's store keeps (`RunEngineOptions.index`). A caller without a principal gets none.
 */
export function withRunIndex(host: RunHost, index: RunIndex): RunHost {
  return {
    ...host,
    async list(caller, query = {}) {
      if (caller.principal === null) return { runs: [] }
      const limit = Math.min(Math.max(query.limit ?? runListLimits.default, 1), runListLimits.max)
      return index.list(caller.principal, { ...query, limit })
    },
  }
}
