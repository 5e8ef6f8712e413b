import { ProtocolError, ProtocolErrorCode, type CallToolRequest, type CallToolResult, type CreateTaskResult, type Server, type ServerContext } from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { startCall } from '../runtime/start-call.ts'
import { runKeeper } from '../runs/run-keeper.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { RunRecord } from '../runs/run-record.ts'
import { isBackgroundTool } from '../tool/is-background-tool.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { cancelAbandoned, finishWaitingRun } from './finish-waiting-run.ts'
import { mcpFirstStep } from './mcp-first-step.ts'
import { readCaller } from './mcp-caller.ts'
import { createProgressSender } from './create-progress-sender.ts'
import { tapRunEvents } from './tap-run-events.ts'
import { errorResult } from './mcp-tool-result.ts'
import { sessionWaitingContext } from './session-waiting-context.ts'
import { toMcpTask } from './to-mcp-task.ts'
import { findMcpTool } from './to-mcp-tool.ts'
import { createMcpLogSender } from './mcp-logging.ts'
import { mcpToolName } from '../tool/mcp-tool-name.ts'
import type { ToolEvent } from '../protocol/tool-event.ts'

/**
 * A refusal before any run exists: an `isError` result for a plain call; for a task-augmented one
 * a protocol error, as its result can only be a task (`-32602`, the arguments are at fault).
 */
function refuse(asTask: boolean, error: ToolrouteError): CallToolResult {
  if (asTask) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.code}: ${error.message}`, error.toJSON().error)
  return errorResult(error)
}

/**
 * `tools/call` on the same executor as `POST /tools/:toolId`: request context (resolved by the
 * HTTP layer, validated here against the tool's schema), input phase with its hooks, approval,
 * execution, suspension, background runs. Every failure is an `isError` result the model can
 * read, never a protocol error. Runs that wait are stored through the run host, as over HTTP.
 */
export async function callMcpTool(server: Server, deps: McpServerDeps, params: CallToolRequest['params'], ctx: ServerContext): Promise<CallToolResult | CreateTaskResult> {
  const tool = await findMcpTool(deps.tools, params.name)
  // MCP lists an unknown tool among invalid params (a protocol error), not as a tool's failure.
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`)
  const asTask = params.task !== undefined
  // A tool whose module cannot load fails its calls, as any tool's error.
  if (ToolrouteError.isInstance(tool)) return refuse(asTask, tool)
  // Only a background tool lists `execution.taskSupport`: a task-augmented call of another tool
  // is refused as the spec asks (-32601), and a background tool may still be called plainly.
  if (asTask && !isBackgroundTool(tool)) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool ${params.name} does not support task-augmented calls (it is not a background tool)`)
  const caller = readCaller(ctx.http?.req?.headers)
  if (caller.error) return refuse(asTask, new ToolrouteError(caller.error.code, caller.error.message))
  const call = startCall(tool, caller.requestContext)
  if (!call.ok) return refuse(asTask, call.error)

  const progressToken = params._meta?.progressToken
  const progress = progressToken !== undefined ? createProgressSender((notification) => ctx.mcpReq.notify(notification as never), progressToken) : undefined
  // A tool's logs (observe.log) as notifications/message on this call's stream, at the session's level (#28 item 4).
  const log = createMcpLogSender(mcpToolName(tool.id), (message) => ctx.mcpReq.log(message.level, message.data, message.logger))
  const tap = (event: ToolEvent) => (progress?.(event), log(event))
  // One host for the call: the step stores the run, then the same host finishes it.
  let host: RunHost | undefined
  // What later steps of the run stream (after an answer) is progress and logs too.
  const runs = () => (host ??= tapRunEvents(deps.runs(), tap))
  const waiting = () => sessionWaitingContext(server, deps, ctx, tool, runs(), caller.principal)
  const running = call.run({
    source: { input: params.arguments ?? {} },
    // A task keeps its call's token on its run: its progress goes out on tasks/result (task-progress.ts).
    keeper: runKeeper({ tool, runs, storeRuns: deps.storeRuns, principal: caller.principal, sentRequestContext: call.sentRequestContext, progressToken: asTask ? progressToken : undefined }),
    tap,
    extras: {
      // An MCP call has no live reader but its progress notifications: a transient chunk goes there only.
      ...(progress ? { emitTransient: progress } : {}),
      signal: ctx.mcpReq.signal,
      mcp: { elicitation: { sendRequest: (request) => waiting().elicit(request) }, extra: ctx as unknown as Record<string, unknown> },
    },
  })
  // A task (2025-11-25): the call answers as soon as the run is stored; tasks/* follow it from there.
  if (asTask) {
    const result = await mcpFirstStep(running, async (run): Promise<CreateTaskResult> => ({ task: toMcpTask(run, deps.basePath) }))
    if ('task' in result) return result
    // Invalid input (or a run that could not be stored): no task was created.
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, (result.content[0] as { text?: string } | undefined)?.text ?? 'The task could not be created', result._meta?.['toolroute/error'])
  }
  let stored: RunRecord | undefined
  const result = await mcpFirstStep(running, (run) => finishWaitingRun(waiting(), (stored = run)))
  await cancelAbandoned({ runs: runs(), principal: caller.principal, signal: ctx.mcpReq.signal }, stored)
  return result
}
