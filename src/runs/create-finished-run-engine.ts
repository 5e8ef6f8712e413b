import { ToolrouteError } from '../errors/toolroute-error.ts'
import { refuseToKeep } from './create-no-run-host.ts'
import { createStoredRuns } from './create-stored-runs.ts'
import type { RunEngine, RunEngineOptions } from './create-run-engine.ts'
import type { RunCaller } from './run-host.ts'
import { createRunLifetime } from './run-lifetime.ts'
import { settledStatuses, type RunRecord } from './run-record.ts'
import { callerStepRefusal, type CallerStep } from './run-refusal.ts'

/**
 * The run engine of an app whose tools never wait (no approval, suspend or background), where a
 * run is stored only because its call had to be (an `Idempotency-Key`, `storeRuns: 'all'`): such
 * a run is stored once it has settled, with all its events, and is then only read back (a keyed
 * repeat's replay, `/runs/:runId`, its events) until its retention deletes it. So this engine has
 * no transitions, steps, background attempts or live followers: a caller's step is refused as
 * the full engine refuses it for a run in that state (`callerStepRefusal`), and a run that is not
 * settled is not stored (a tool that suspends through a helper, which the build cannot see: its
 * call fails as in an app that keeps no runs). `toolroute build` chooses it (`workerFinishedRunStore`)
 * for an app whose calls reach no other run; everything a caller reads answers as in the full engine.
 * It takes the full engine's options but the tools (it never executes one) and deferred work.
 */
export function createFinishedRunEngine(options: Omit<RunEngineOptions, 'tools' | 'defer' | 'pollMs'>): RunEngine {
  const { store } = options
  const now = options.now ?? Date.now
  const lifetime = createRunLifetime(options)
  const runs = createStoredRuns({ store, lifetime, now, schedule: options.schedule })
  /** A run this engine did not store (a deploy whose tools waited left it): nothing here can drive it. */
  const undriven = (run: RunRecord) =>
    new ToolrouteError('EXECUTION_FAILED', `Run ${run.runId} is ${run.status}, and this Worker keeps only finished runs (none of its tools waits): it cannot be driven here`)
  const refuse = async (runId: string, caller: RunCaller, step: CallerStep): Promise<never> => {
    const run = await runs.load(runId, caller)
    throw callerStepRefusal(run, step) ?? undriven(run)
  }
  return {
    async open(run, events) {
      if (!settledStatuses.includes(run.status)) {
        refuseToKeep(run, `needs its run kept ${run.status}, but this Worker keeps only finished runs: pass \`runStore: workerRunStore\` (from toolroute/workers), as toolroute build does when it sees a tool that may wait (a tool that suspends: give it a suspendSchema or resumeSchema)`)
      }
      await runs.schedule(await runs.create(run, events))
    },
    approve: (runId, caller) => refuse(runId, caller, 'approve'),
    decline: (runId, caller) => refuse(runId, caller, 'decline'),
    resume: (runId, caller) => refuse(runId, caller, 'resume'),
    cancel: (runId, caller) => refuse(runId, caller, 'cancel'),
    async answer(runId, caller) {
      // A settled run asks nothing: no key names a pending question.
      await runs.load(runId, caller)
      return []
    },
    async get(runId, caller) {
      const run = await runs.load(runId, caller)
      return caller.events ? runs.view(run, caller.events) : { run, events: [] }
    },
    async follow(runId, caller) {
      // A settled run's log is complete: its events after `after`, and the end.
      return runs.replay(await runs.load(runId, caller), caller.after)
    },
    async abortStep(runId, caller) {
      // Nothing executes here: only whether the caller may see the run.
      await runs.load(runId, caller)
    },
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
