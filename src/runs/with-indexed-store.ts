import type { RunIndexWrites } from './run-index.ts'
import { changesListing, runIndexEntryOf } from './run-query.ts'
import type { RunRecord } from './run-record.ts'
import type { RunStore } from './run-store.ts'

/**
 * A run store whose principal's runs are listed (`RunIndex`): each run with a principal is put in the
 * index once created, again after each change it lists (`changesListing`), and removed before it is
 * deleted. The index is written after the store, so a failed write lists nothing the store does not hold;
 * a delete interrupted between the two leaves the run unlisted, deleted again by its next sweep.
 */
export function withIndexedStore(store: RunStore, index: RunIndexWrites): RunStore {
  const put = (run: RunRecord) => (run.principal === null ? undefined : index.put?.(run.principal, runIndexEntryOf(run)))
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
      if (result.ok && changesListing(patch)) await put(result.run)
      return result
    },
    async delete(runId) {
      const run = await store.get(runId)
      if (run && run.principal !== null) await index.remove(run.principal, run)
      await store.delete(runId)
    },
  }
}
