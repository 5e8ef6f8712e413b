import type { RunCallOptions, RunEngine } from './create-run-engine.ts'
import type { RunHost } from './run-host.ts'

/**
 * The engine as one request's `RunHost`: every call carries that request's `defer`, so the work a
 * call starts is kept alive by its request (the engine outlives it: one per KV namespace and isolate).
 */
export function runHostForCall(engine: RunEngine, call: RunCallOptions): RunHost {
  return {
    open: (run, events) => engine.open(run, events, call),
    approve: (runId, caller) => engine.approve(runId, { ...caller, ...call }),
    decline: (runId, caller) => engine.decline(runId, caller),
    resume: (runId, caller) => engine.resume(runId, { ...caller, ...call }),
    cancel: (runId, caller) => engine.cancel(runId, caller),
    get: (runId, caller) => engine.get(runId, caller),
    follow: (runId, caller) => engine.follow(runId, caller),
  }
}
