import { waitingStatuses, type RunRecord } from '../runs/run-record.ts'
import type { RunStore } from '../runs/run-store.ts'

/** Whether webhooks are told of `run` as a write stores it: opened waiting (no `patch`), or a transition naming a status. */
export const isTold = (run: RunRecord, patch?: Partial<RunRecord>) => (patch ? patch.status !== undefined : waitingStatuses.includes(run.status))

/**
 * `store`, telling `tell` of each status a run's state is stored in, after it is stored: a run opened
 * waiting, and each transition that names a status. A run created already settled (a call that
 * completed in its request, kept for its `Idempotency-Key`) is not told: its caller has the answer.
 * What `tell` throws is logged, never the call's: a webhook never fails a call.
 */
export function webhookRunStore(store: RunStore, tell: (run: RunRecord) => void | Promise<void>): RunStore {
  const told = async (run: RunRecord) => {
    try {
      await tell(run)
    } catch (error) {
      console.error(`toolroute: the webhooks of run ${run.runId} could not be queued`, error)
    }
  }
  return {
    exactlyOnce: store.exactlyOnce,
    async create(run, events) {
      const stored = await store.create(run, events)
      if (isTold(run)) await told(run)
      return stored
    },
    async transition(runId, from, patch, events, when) {
      const result = await store.transition(runId, from, patch, events, when)
      if (result.ok && isTold(result.run, patch)) await told(result.run)
      return result
    },
    get: (runId) => store.get(runId),
    append: (runId, events, limits) => store.append(runId, events, limits),
    events: (runId, after, limit) => store.events(runId, after, limit),
    size: (runId) => store.size(runId),
    delete: (runId) => store.delete(runId),
  }
}
