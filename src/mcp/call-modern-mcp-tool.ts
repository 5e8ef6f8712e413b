import { acceptedContent, inputRequired, type CallToolResult, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server'
import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'
import { EventLog } from '../http/event-log.ts'
import { createObserve } from '../runtime/create-observe.ts'
import { createRunId, createToolCallId } from '../runtime/create-id.ts'
import { RequestContext } from '../runtime/request-context.ts'
import type { ToolCallScope } from '../runtime/tool-call-scope.ts'
import { checkRequestContext } from '../runtime/validate-call.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { runFirstStep } from '../runs/run-first-step.ts'
import type { ElicitResult } from '../tool/tool-types.ts'
import type { McpServerDeps } from './create-mcp-server.ts'
import { answerApproval, answerResume, approvalQuestion, followToEnd, resumeQuestion, shown, type AnswerContext } from './finish-waiting-run.ts'
import { readCaller } from './mcp-caller.ts'
import { completedResult, errorResult, settledResult, waitingResult } from './mcp-tool-result.ts'

/** The one key of the questions toolroute asks in an `input_required` result. */
export const answerKey = 'answer'

/** What the modern leg needs beyond a 2025 server's deps: the codec that seals a question's run. */
export interface ModernMcpDeps extends McpServerDeps {
  requestState: RequestStateCodec<{ runId: string }>
}

type ModernResult = CallToolResult | InputRequiredResult

/**
 * `tools/call` under 2026-07-28, on the same executor and run host as HTTP and 2025 MCP. A run
 * that waits for a person (approval, suspension) becomes an `input_required` result: its question
 * as an elicitation form, its `requestState` a sealed `{ runId, principal }`. The client's retry
 * answers that run (approve, decline, resume: the run host's compare-and-set), so the tool runs
 * once and nothing before the question runs again.
 */
export async function callModernMcpTool(deps: ModernMcpDeps, params: { name: string; arguments?: Record<string, unknown> }, ctx: ServerContext): Promise<ModernResult> {
  const tool = deps.tools.get(params.name)
  if (!tool) return errorResult(new ToolrouteError('TOOL_NOT_FOUND', `Tool ${params.name} not found`)) as CallToolResult
  const caller = readCaller(ctx.http?.req?.headers)
  let host: RunHost | undefined
  const runs = () => (host ??= deps.runs())
  const answers: AnswerContext = { tool, get runs() { return runs() }, principal: caller.principal, signal: ctx.mcpReq.signal }

  // Verified by the SDK's seam (the codec's `verify`) before this handler runs.
  const state = ctx.mcpReq.requestState<{ runId: string }>()
  if (state) {
    // A retry: the answer goes to the run the question came from, not to a new call.
    try {
      const { run } = await runs().get(state.runId, { principal: caller.principal })
      if (run.toolId !== tool.id) throw new ToolrouteError('RUN_NOT_FOUND', `Run ${state.runId} not found`)
      const answer = (ctx.mcpReq.inputResponses?.[answerKey] ?? { action: 'cancel' }) as ElicitResult
      const content = acceptedContent(ctx.mcpReq.inputResponses, answerKey)
      const given: ElicitResult = content ? { action: 'accept', content: content as ElicitResult['content'] } : answer
      if (run.status === 'approval-required') {
        const next = await answerApproval(answers, run, given)
        return next ? await settle(deps, ctx, answers, next) : waiting(deps, run)
      }
      if (run.status === 'suspended') {
        const next = await answerResume(answers, run, given)
        if (next && 'problem' in next) return ask(deps, ctx, run, next.problem)
        return next ? await settle(deps, ctx, answers, next) : waiting(deps, run)
      }
      return await settle(deps, ctx, answers, run)
    } catch (error) {
      return failure(error, { runId: state.runId, toolCallId: '' })
    }
  }

  if (caller.error) return errorResult(new ToolrouteError(caller.error.code, caller.error.message)) as CallToolResult
  const context = checkRequestContext(tool.id, tool.schemas.requestContext, caller.requestContext)
  if (!context.ok) return errorResult(context.error) as CallToolResult
  const ids = { runId: createRunId(), toolCallId: createToolCallId() }
  const log = new EventLog()
  const scope: ToolCallScope = {
    tool,
    ...ids,
    requestContext: new RequestContext(context.value),
    emit: log.push,
    observe: createObserve(log.push),
    signal: ctx.mcpReq.signal,
    messages: [],
    mcp: {
      elicitation: {
        // 2026-07-28 has no server-to-client requests: a question mid-execute would need the
        // execution parked across requests. Tools ask through suspend() (a durable run) instead.
        sendRequest: () =>
          Promise.reject(
            new ToolrouteError('EXECUTION_FAILED', 'This MCP client speaks 2026-07-28, where a tool cannot ask mid-call; use suspend() with a resumeSchema, or a 2025-11-25 session'),
          ),
      },
      extra: ctx as unknown as Record<string, unknown>,
    },
  }
  try {
    const ending = await runFirstStep({ scope, log, source: { input: params.arguments ?? {} }, principal: caller.principal, requestContext: context.value, runs, storeRuns: deps.storeRuns })
    switch (ending.kind) {
      case 'input-error':
        return errorResult(ending.error, ids) as CallToolResult
      case 'approval-required':
      case 'background':
        return await settle(deps, ctx, answers, ending.run)
      case 'executed': {
        const { outcome } = ending
        if (outcome.status === 'suspended') return await settle(deps, ctx, answers, ending.run!)
        if (outcome.status === 'failed') return errorResult(outcome.error, ids) as CallToolResult
        return completedResult(ids, outcome.output, outcome.modelOutput) as CallToolResult
      }
    }
  } catch (error) {
    return failure(error, ids)
  }
}

/** Where a run stands after a step: its result, a question (input_required), or a background run followed to its end. */
async function settle(deps: ModernMcpDeps, ctx: ServerContext, answers: AnswerContext, run: RunRecord): Promise<ModernResult> {
  let current = run
  if (current.status === 'running') {
    current = await followToEnd(answers, current)
    if (current.status === 'running') return waiting(deps, current)
  }
  if (current.status === 'approval-required' || current.status === 'suspended') return ask(deps, ctx, current)
  return (await settledResult(current)) as CallToolResult
}

/** The run's question as an `input_required` result, or the HTTP routes when no form can ask it. */
async function ask(deps: ModernMcpDeps, ctx: ServerContext, run: RunRecord, problem = ''): Promise<ModernResult> {
  const tool = deps.tools.get(run.toolId)!
  const question = run.status === 'approval-required' ? await approvalQuestion(tool, run) : await resumeQuestion(tool, run, problem)
  if (!question) return waiting(deps, run)
  return inputRequired({
    inputRequests: { [answerKey]: inputRequired.elicit(question as Parameters<typeof inputRequired.elicit>[0]) },
    requestState: await deps.requestState.mint({ runId: run.runId }, ctx),
  })
}

async function waiting(deps: ModernMcpDeps, run: RunRecord): Promise<CallToolResult> {
  const tool = deps.tools.get(run.toolId)!
  return waitingResult(tool, run, deps.basePath, run.status === 'suspended' ? await shown(tool, run, 'suspend') : undefined) as CallToolResult
}

function failure(error: unknown, ids: { runId: string; toolCallId: string }): CallToolResult {
  return errorResult(ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error)), ids) as CallToolResult
}
