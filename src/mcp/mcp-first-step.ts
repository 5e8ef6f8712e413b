import type { CallToolResult } from '@modelcontextprotocol/server'
import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunningCall } from '../runtime/start-call.ts'
import { completedResult, errorResult } from './mcp-tool-result.ts'

/** A failure of the run host or store (a run approved over HTTP meanwhile, an expired run) as an `isError` result. */
export function failureResult(error: unknown, ids?: { runId: string; toolCallId: string }): CallToolResult {
  return errorResult(ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error)), ids)
}

/** The first step of a `tools/call` as its result; a run stored to wait or go on in the background goes to `waiting`. */
export async function mcpFirstStep<R>(call: RunningCall<RunRecord>, waiting: (run: RunRecord) => Promise<R>): Promise<R | CallToolResult> {
  try {
    const ending = await call.ending
    switch (ending.kind) {
      case 'input-error':
        return errorResult(ending.error, call.ids)
      case 'approval-required':
      case 'background':
        return await waiting(ending.run)
      case 'executed': {
        const { outcome } = ending
        if (outcome.status === 'suspended') return await waiting(ending.run!)
        if (outcome.status === 'failed') return errorResult(outcome.error, call.ids)
        return completedResult(call.ids, outcome.output, outcome.modelOutput)
      }
    }
  } catch (error) {
    return failureResult(error, call.ids)
  }
}
