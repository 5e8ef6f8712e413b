import type { RunIndex } from './run-index.ts'
import { runIndexEntryOf } from './run-query.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'

/**
 * A run store whose principal's runs are listed (`RunIndex`): each run with a principal is put in the
 * index once created, again after each status change (a transition: approval, resume, the end of a
 * step or an attempt, cancel, expiry), and removed once deleted. The index is written after the store,
 * so a failed write lists nothing the store does not hold.
 */
export function withIndexedStore(store: RunStore, index: RunIndex): RunStore {
  const put = (run: RunRecord) => (run.principal === null ? undefined : index.put(run.principal, runIndexEntryOf(run)))
  return {
    ...store,
    exactlyOnce: store.exactlyOnce,
    async create(run, events) {
      const stored = await store.create(run, events)
      await put(run)
      return stored
    },
    async transition(runId, from, patch, events, when) {
      const result = await store.transition(runId, from, patch, events, when)
      // A lease renewed or a question asked changes no status: nothing listed moves.
      if (result.ok && (patch.status !== undefined || patch.approvalId !== undefined || patch.expiresAt !== undefined)) await put(result.run)
      return result
    },
    async delete(runId) {
      const run = await store.get(runId)
      await store.delete(runId)
      if (run && run.principal !== null) await index.remove(run.principal, run)
    },
  }
}
