// @ts-types="@modelcontextprotocol/sdk/server/index"
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import { EventLog } from '../http/event-log.ts'
import { isBackgroundTool } from '../http/tool-descriptor.ts'
import { createObserve } from '../runtime/create-observe.ts'
import { createRunId, createToolCallId, randomHex } from '../runtime/create-id.ts'
import { executeToolCall, needsApproval } from '../runtime/execute-tool-call.ts'
import { receiveInput } from '../runtime/receive-input.ts'
import { RequestContext } from '../runtime/request-context.ts'
import type { ToolCallScope } from '../runtime/tool-call-scope.ts'
import { checkRequestContext } from '../runtime/validate-call.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { ElicitRequestParams, ElicitResult } from '../tool/tool-types.ts'
import type { McpServerDeps } from './create-mcp-server.ts'
import { finishWaitingRun } from './finish-waiting-run.ts'
import { readCaller } from './mcp-caller.ts'
import { completedResult, errorResult } from './mcp-tool-result.ts'

/** The SDK's `extra` of a request handler (signal, ids, request info, sendRequest…). */
export type McpRequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]

/**
 * `tools/call` on the same executor as `POST /tools/:toolId`: request context (resolved by the
 * HTTP layer, validated here against the tool's schema), input phase with its hooks, approval,
 * execution, suspension, background runs. Every failure is an `isError` result the model can
 * read, never a protocol error. Runs that wait are stored through the run host, as over HTTP.
 */
export async function callMcpTool(server: Server, deps: McpServerDeps, params: CallToolRequest['params'], extra: McpRequestExtra): Promise<CallToolResult> {
  const tool = deps.tools.get(params.name)
  if (!tool) return errorResult(new ToolrouteError('TOOL_NOT_FOUND', `Tool ${params.name} not found`))
  const caller = readCaller(extra.requestInfo?.headers)
  if (caller.error) return errorResult(new ToolrouteError(caller.error.code, caller.error.message))
  const context = checkRequestContext(tool.id, tool.schemas.requestContext, caller.requestContext)
  if (!context.ok) return errorResult(context.error)

  const ids = { runId: createRunId(), toolCallId: createToolCallId() }
  const log = new EventLog()
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
    emit: log.push,
    observe: createObserve(log.push),
    signal: extra.signal,
    messages: [],
    mcp: { elicitation: { sendRequest: elicit }, extra: extra as unknown as Record<string, unknown> },
  }

  try {
    log.push({ type: 'start', messageMetadata: ids })
    const received = await receiveInput(scope, { input: params.arguments ?? {} })
    if (!received.ok) return errorResult(received.error, ids)
    const input = received.value.value
    const at = new Date().toISOString()
    const record: Omit<RunRecord, 'status'> = { ...ids, toolId: tool.id, principal: caller.principal, createdAt: at, updatedAt: at, input, requestContext: context.value }
    const runs = deps.runs()
    const open = async (run: RunRecord) => {
      await runs.open(run, [...log.events])
      return run
    }
    const waiting = {
      tool,
      runs,
      principal: caller.principal,
      basePath: deps.basePath,
      canElicit: Boolean(server.getClientCapabilities()?.elicitation?.form),
      elicit,
      signal: extra.signal,
    }

    if (await needsApproval(scope, input)) {
      const approvalId = `approval_${randomHex(12)}`
      log.push({ type: 'tool-approval-request', approvalId, toolCallId: ids.toolCallId })
      log.push({ type: 'finish', finishReason: 'other' })
      const run = await open({ ...record, status: 'approval-required', approvalId, ...(isBackgroundTool(tool) ? { background: true } : {}) })
      return await finishWaitingRun(waiting, run)
    }
    if (isBackgroundTool(tool)) {
      return await finishWaitingRun(waiting, await open({ ...record, status: 'running', background: true, attempts: 0 }))
    }
    const outcome = await executeToolCall(scope, input)
    log.push({ type: 'finish', finishReason: outcome.status === 'failed' ? 'error' : outcome.status === 'suspended' ? 'other' : 'stop' })
    if (outcome.status === 'suspended') {
      return await finishWaitingRun(waiting, await open({ ...record, status: 'suspended', suspendPayload: outcome.suspendPayload }))
    }
    if (deps.storeRuns === 'all') {
      await open(
        outcome.status === 'completed'
          ? { ...record, status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput }
          : { ...record, status: 'failed', error: outcome.error.toJSON().error },
      )
    }
    if (outcome.status === 'failed') return errorResult(outcome.error, ids)
    return completedResult(ids, outcome.output, outcome.modelOutput)
  } catch (error) {
    // A run host refusal (a run approved over HTTP meanwhile, an expired run) or a store failure.
    return errorResult(ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error)), ids)
  } finally {
    log.close()
  }
}
