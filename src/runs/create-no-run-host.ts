import { ToolrouteError } from '../errors/toolroute-error.ts'
import { runNotFound } from './authorize-run.ts'
import type { RunHost } from './run-host.ts'

/** Whether a tool suspends is declared, not guessed: one that suspends without a schema is unseen by the build. */
const suspendAdvice = ' (a tool that suspends: give it a suspendSchema or resumeSchema, so toolroute build sees that it may)'

/** Why a host keeps no runs: a symbol key, so hosts spread over it (`withRunIndex`, MCP's progress tap) keep it. */
const noRuns = Symbol('toolroute.noRuns')

/**
 * The run host of an app that keeps no runs (SPEC §11): every run id is `RUN_NOT_FOUND`, and a
 * call that must store its run fails with `EXECUTION_FAILED` saying `advice`. It imports nothing of the engine.
 */
export function createNoRunHost(advice: string): RunHost {
  const refuse = async (run: { toolId: string; status?: string }): Promise<never> =>
    refuseToKeep(run, `needs its run stored, but this app keeps no runs: ${advice}${run.status === 'suspended' ? suspendAdvice : ''}`)
  const missing = (runId: string): Promise<never> => Promise.reject(runNotFound(runId))
  return {
    [noRuns]: advice,
    open: refuse,
    approve: missing,
    decline: missing,
    resume: missing,
    cancel: missing,
    get: missing,
    follow: missing,
  } as RunHost
}

/**
 * Fails a call whose run this app cannot keep, saying `why` to its caller and in the log: the
 * first request may have warned of nothing (a tool that suspends without a schema).
 */
export function refuseToKeep(run: { toolId: string }, why: string): never {
  const error = new ToolrouteError('EXECUTION_FAILED', `Tool "${run.toolId}" ${why}`)
  console.error(`toolroute: ${error.message}`)
  throw error
}

/**
 * The refusal of a call whose run must be stored (`storeRuns: 'all'`, an `Idempotency-Key`) by a
 * host that keeps none: found before the tool runs, so it is not executed for an answer that then fails.
 */
export function refusalToStore(host: RunHost): ToolrouteError | undefined {
  const advice = (host as { [noRuns]?: string })[noRuns]
  return advice === undefined ? undefined : new ToolrouteError('EXECUTION_FAILED', `This app keeps no runs, and this call's run must be stored: ${advice}`)
}
