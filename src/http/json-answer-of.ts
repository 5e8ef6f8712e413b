import type { Context } from 'hono'
import type { CallIds } from '../runtime/start-call.ts'
import { headerNames } from '../protocol/header-names.ts'
import { outputNotJsonMessage, ToolrouteError } from '../errors/toolroute-error.ts'
import type { ToolAppOptions } from './tool-app-options.ts'

/** Writes a call's JSON answer with its run's ids, as `c.json(body, status, headers)` does. */
export type JsonAnswer = (c: Context, body: unknown, status: 200 | 202, ids: CallIds) => Response

/**
 * The JSON call path's one speed-up (BENCHMARKS.md, "JSON call"): `c.json` sets each header, a runtime call
 * apiece; a record given to `Response` is read in one. It skips what `c.header()` set, so it runs only where
 * nothing can have: the first handler, and no app code given the context (resolver, principal rule, run host).
 * The body is encoded once, here: an output that is not JSON fails the call (`outputNotJsonMessage`).
 */
export function jsonAnswerOf(options: Pick<ToolAppOptions, 'resolveRequestContext' | 'principal' | 'storeRuns' | 'runs'>): JsonAnswer {
  const handsOutContext =
    options.resolveRequestContext !== undefined || options.principal !== undefined || (options.storeRuns === 'all' && typeof options.runs === 'function')
  return (c, body, status, ids) => {
    const text = jsonTextOf(c, body, ids)
    if (handsOutContext || status !== 200 || c.req.routeIndex !== 0) return c.body(text, status, { 'content-type': 'application/json', ...idHeaders(ids) })
    const headers = { 'content-type': 'application/json', [headerNames.runId]: ids.runId, [headerNames.toolCallId]: ids.toolCallId, [headerNames.traceId]: ids.traceId }
    return new Response(text, { status, headers })
  }
}

/** A completed call's JSON text; an output that cannot become JSON is the call's failure, with the run's ids. */
export function jsonTextOf(c: Context, body: unknown, ids: CallIds): string {
  try {
    return JSON.stringify(body)
  } catch (error) {
    for (const [name, value] of Object.entries(idHeaders(ids))) c.header(name, value)
    throw new ToolrouteError('EXECUTION_FAILED', outputNotJsonMessage, { cause: error })
  }
}

/** A call's id headers: `x-run-id`, `x-tool-call-id` and `x-trace-id` (SPEC §17). */
export const idHeaders = ({ runId, toolCallId, traceId }: CallIds): Record<string, string> => ({ [headerNames.runId]: runId, [headerNames.toolCallId]: toolCallId, [headerNames.traceId]: traceId })
