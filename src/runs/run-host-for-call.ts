import type { RunCallOptions, RunEngine } from './create-run-engine.ts'
import type { RunHost } from './run-host.ts'

/**
 * The engine as one request's `RunHost`: every call it makes carries that request's `defer`. An
 * engine lives as long as its process (one per KV namespace and isolate), a request only as long
 * as its answer, so the work a call starts is kept alive by the request that started it.
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
