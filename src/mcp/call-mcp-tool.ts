// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError, type CallToolRequest, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { EventLog } from '../events/event-log.ts'
import { createObserve } from '../runtime/create-observe.ts'
import { createRunId, createToolCallId } from '../runtime/create-id.ts'
import { RequestContext } from '../tool/request-context.ts'
import type { ToolCallScope } from '../runtime/tool-call-scope.ts'
import { checkRequestContext } from '../runtime/validate-call.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { runFirstStep } from '../runs/run-first-step.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-types.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { finishWaitingRun } from './finish-waiting-run.ts'
import { readCaller } from './mcp-caller.ts'
import { createProgressSender } from './create-progress-sender.ts'
import { tapRunEvents } from './tap-run-events.ts'
import { completedResult, errorResult } from './mcp-tool-result.ts'
import { findMcpTool } from './to-mcp-tool.ts'

/** The SDK's `extra` of a request handler (signal, ids, request info, sendRequest…). */
export type McpRequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]

/**
 * `tools/call` on the same executor as `POST /tools/:toolId`: request context (resolved by the
 * HTTP layer, validated here against the tool's schema), input phase with its hooks, approval,
 * execution, suspension, background runs. Every failure is an `isError` result the model can
 * read, never a protocol error. Runs that wait are stored through the run host, as over HTTP.
 */
export async function callMcpTool(server: Server, deps: McpServerDeps, params: CallToolRequest['params'], extra: McpRequestExtra): Promise<CallToolResult> {
  const tool = await findMcpTool(deps.tools, params.name)
  // MCP lists an unknown tool among invalid params (a protocol error), not as a tool's failure.
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`)
  if (ToolrouteError.isInstance(tool)) return errorResult(tool)
  const caller = readCaller(extra.requestInfo?.headers)
  if (caller.error) return errorResult(new ToolrouteError(caller.error.code, caller.error.message))
  const context = checkRequestContext(tool.id, tool.schemas.requestContext, caller.requestContext)
  if (!context.ok) return errorResult(context.error)

  const ids = { runId: createRunId(), toolCallId: createToolCallId() }
  const log = new EventLog()
  const progressToken = params._meta?.progressToken
  const progress = progressToken !== undefined ? createProgressSender((notification) => extra.sendNotification(notification as never), progressToken) : undefined
  const emit = progress
    ? (event: ToolEvent) => {
        log.push(event)
        progress(event)
      }
    : log.push
  // `relatedRequestId` sends the question on this call's own response stream: without it the
  // SDK uses the standalone GET stream, and drops the question when none is open.
  const elicit = (request: ElicitRequestParams): Promise<ElicitResult> =>
    server.elicitInput({ ...request, mode: 'form' } as never, {
      relatedRequestId: extra.requestId,
      timeout: deps.elicitationTimeoutMs,
      signal: extra.signal,
    }) as Promise<ElicitResult>
  const scope: ToolCallScope = {
    tool,
    ...ids,
    requestContext: new RequestContext(context.value),
    emit,
    // An MCP call has no live reader but its progress notifications: a transient chunk goes there only.
    emitTransient: (event) => progress?.(event),
    observe: createObserve(emit),
    signal: extra.signal,
    messages: [],
    mcp: { elicitation: { sendRequest: elicit }, extra: extra as unknown as Record<string, unknown> },
  }

  // One host for the call: the step stores the run, then the same host finishes it.
  let host: RunHost | undefined
  // With a progress token, what later steps of the run stream (after an answer) is progress too.
  const runs = () => (host ??= progress ? tapRunEvents(deps.runs(), progress) : deps.runs())
  const finishWaiting = (run: RunRecord) =>
    finishWaitingRun(
      {
        tool,
        runs: runs(),
        principal: caller.principal,
        basePath: deps.basePath,
        canElicit: Boolean(server.getClientCapabilities()?.elicitation?.form),
        elicit,
        signal: extra.signal,
      },
      run,
    )
  try {
    const ending = await runFirstStep({
      scope,
      log,
      source: { input: params.arguments ?? {} },
      principal: caller.principal,
      requestContext: context.value,
      runs,
      storeRuns: deps.storeRuns,
    })
    switch (ending.kind) {
      case 'input-error':
        return errorResult(ending.error, ids)
      case 'approval-required':
      case 'background':
        return await finishWaiting(ending.run)
      case 'executed': {
        const { outcome } = ending
        if (outcome.status === 'suspended') return await finishWaiting(ending.run!)
        if (outcome.status === 'failed') return errorResult(outcome.error, ids)
        return completedResult(ids, outcome.output, outcome.modelOutput)
      }
    }
  } catch (error) {
    // A run host refusal (a run approved over HTTP meanwhile, an expired run) or a store failure.
    return errorResult(ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error)), ids)
  }
}
