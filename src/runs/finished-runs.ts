import { ToolrouteError } from '../errors/toolroute-error.ts'
import { refuseToKeep } from './create-no-run-host.ts'
import type { RunDriver } from './create-run-engine.ts'
import type { RunCaller } from './run-host.ts'
import { settledStatuses } from './run-record.ts'
import { callerStepRefusal, type CallerStep } from './run-refusal.ts'

/**
 * What an engine of an app whose tools never wait keeps: runs stored once settled, only read back.
 * A caller's step is refused as `driveRuns` refuses it for a run in that state, and a run that is
 * not settled (a tool that suspends through a helper, which the build cannot see) is not stored.
 */
export const finishedRuns: RunDriver = ({ store, now, lifetime, runs }) => {
  const refuse = (step: CallerStep) => async (runId: string, caller: RunCaller): Promise<never> => {
    const run = await runs.load(runId, caller)
    // A run this engine did not store (a deploy whose tools waited left it) cannot be driven here.
    throw callerStepRefusal(run, step) ??
      new ToolrouteError('EXECUTION_FAILED', `Run ${run.runId} is ${run.status}, and this Worker keeps only finished runs (none of its tools waits): it cannot be driven here`)
  }
  return {
    async open(run, events) {
      if (!settledStatuses.includes(run.status)) {
        refuseToKeep(run, `needs its run kept ${run.status}, but this Worker keeps only finished runs: pass \`runStore: workerRunStore\` (from toolroute/workers), as toolroute build does when it sees a tool that may wait (a tool that suspends: give it a suspendSchema or resumeSchema)`)
      }
      await runs.schedule(await runs.create(run, events))
    },
    approve: refuse('approve'),
    decline: refuse('decline'),
    resume: refuse('resume'),
    cancel: refuse('cancel'),
    get: async (runId, caller) => runs.view(await runs.load(runId, caller), caller.events),
    async answer(runId, caller) {
      // A settled run asks nothing: no key names a pending question.
      await runs.load(runId, caller)
      return []
    },
    async abortStep(runId, caller) {
      // Nothing executes here: only whether the caller may see the run.
      await runs.load(runId, caller)
    },
    // A settled run's log is complete: its events after `after`, and the end.
    follow: async (runId, caller) => runs.replay(await runs.load(runId, caller), caller.after),
    async runBackground() {},
    async sweep(runId) {
      const run = await store.get(runId)
      if (!run) return
      // Retention over, or a run this engine cannot drive (its expiry came): deleted with its alarm.
      if (!settledStatuses.includes(run.status) || lifetime.isGone(run, now())) return store.delete(runId)
      await runs.schedule(run)
    },
  }
}
