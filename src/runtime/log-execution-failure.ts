import type { ToolrouteError } from '../errors/toolroute-error.ts'
import { isAbortFailure } from './call-abort.ts'

/**
 * Writes where a tool's `execute` threw to the server's log (`wrangler dev`'s terminal, Workers
 * logs, Deno's stderr). The caller only ever gets the message (SPEC §2: never a stack trace);
 * the developer needs the stack. Aborts (a caller that left, a cancel) are not failures of the tool.
 */
export function logExecutionFailure(toolId: string, runId: string, error: ToolrouteError): void {
  // (`as unknown`: the guard would otherwise narrow `error` to never below)
  if (error.code !== 'EXECUTION_FAILED' || isAbortFailure(error as unknown)) return
  const thrown = error.cause instanceof Error ? error.cause : error
  console.error(`toolroute: tool ${toolId} failed (run ${runId}):`, thrown)
}
