import type { CallKeeper } from '../runtime/start-call.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { refusalToStore } from './create-no-run-host.ts'
import type { RunHost } from './run-host.ts'
import type { RunRecord } from './run-record.ts'

/** Who owns a run the call keeps, or how to get it: asked only when a run is kept (HTTP hashes a credential). */
export type StepPrincipal = string | null | (() => Promise<string | null>)

export interface RunKeeperArgs {
  tool: AnyTool
  runs: () => RunHost
  storeRuns: 'stateful' | 'all'
  principal: StepPrincipal
  /** The request context as the caller sent it, before the schema: what the run stores. */
  sentRequestContext: Record<string, unknown>
  /** Kept on the run (`RunRecord.progressToken`): an MCP task's progress token. */
  progressToken?: string | number | undefined
  /** Kept on the run (`RunRecord.askable`): its requester answers the questions its steps ask. */
  askable?: boolean
}

/** A call's keeper over the runs service: a kept call is a run, opened with the call's events. */
export function runKeeper(args: RunKeeperArgs): CallKeeper<RunRecord> {
  return {
    keepAll: args.storeRuns === 'all',
    refusal: () => refusalToStore(args.runs()),
    async keep(ids, input, state, events) {
      const principal = typeof args.principal === 'function' ? await args.principal() : args.principal
      // Made only for a run that is kept: formatting dates costs more than a stateless call's validation.
      const at = new Date().toISOString()
      const run = {
        runId: ids.runId,
        toolId: args.tool.id,
        toolCallId: ids.toolCallId,
        traceId: ids.traceId,
        ...(ids.spanId ? { spanId: ids.spanId } : {}),
        principal,
        createdAt: at,
        updatedAt: at,
        input,
        requestContext: args.sentRequestContext,
        ...(args.progressToken !== undefined ? { progressToken: args.progressToken } : {}),
        ...(args.askable ? { askable: true } : {}),
        ...state,
      } as RunRecord
      await args.runs().open(run, events)
      return run
    },
  }
}
