import type { ToolrouteError } from '../errors/toolroute-error.ts'
import { isAbortFailure } from './call-abort.ts'

/**
 * Logs where a tool's `execute` threw: the caller only gets the message (SPEC §2), the developer
 * needs the stack. Aborts are not failures of the tool.
 */
export function logExecutionFailure(toolId: string, runId: string, error: ToolrouteError): void {
  // (`as unknown`: the guard would otherwise narrow `error` to never below)
  if (error.code !== 'EXECUTION_FAILED' || isAbortFailure(error as unknown)) return
  // What was thrown, whatever it is (a plain object's other fields never reach the caller: they reach the log).
  console.error(`toolroute: tool ${toolId} failed (run ${runId}):`, error.cause === undefined ? error : error.cause)
}
