import { ProtocolError, ProtocolErrorCode, type CallToolRequest, type CreateTaskResult, type ServerContext } from '@modelcontextprotocol/server'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { newCallIds, startCall } from '../runtime/start-call.ts'
import { traceparentOf } from '../protocol/traceparent.ts'
import { runKeeper } from '../runs/run-keeper.ts'
import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { mcpFirstStep } from './mcp-first-step.ts'
import { readCaller } from './mcp-caller.ts'
import { createProgressSender } from './create-progress-sender.ts'
import { toMcpTask } from './to-mcp-task.ts'

/** A task-augmented call refused before any run exists: `-32602`, the arguments, request context or tool are at fault. */
export function refuseTask(error: ToolrouteError): never {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.code}: ${error.message}`, error.toJSON().error)
}

/** A task-augmented `tools/call` (2025-11-25): its run stored as a background run whose task answers at once, its span a call's, ended then (SPEC §17). A refusal before any run exists is a protocol error: such a call's result can only be a task. */
export async function callMcpTask(deps: McpServerDeps, tool: AnyTool, params: CallToolRequest['params'], ctx: ServerContext): Promise<CreateTaskResult> {
  // Only a background tool lists `execution.taskSupport`: a task-augmented call of another tool
  // is refused as the spec asks (-32601), and a background tool may still be called plainly.
  if (!isBackgroundTool(tool)) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Tool ${params.name} does not support task-augmented calls (it is not a background tool)`)
  const caller = readCaller(ctx.http?.req?.headers)
  if (caller.error) refuseTask(new ToolrouteError(caller.error.code, caller.error.message))
  const call = startCall(tool, caller.requestContext)
  if (!call.ok) refuseTask(call.error)
  const progressToken = params._meta?.progressToken
  const progress = progressToken !== undefined ? createProgressSender((notification) => ctx.mcpReq.notify(notification as never), progressToken) : undefined
  const span = deps.tracer?.(tool.id, { traceparent: traceparentOf(params._meta) })
  const ids = newCallIds(undefined, traceparentOf(params._meta), span?.ids)
  const running = call.run({
    source: { input: params.arguments ?? {} },
    ids,
    // A task keeps its call's token on its run: its progress goes out on tasks/result (task-progress.ts).
    keeper: runKeeper({ tool, runs: deps.runs, storeRuns: deps.storeRuns, principal: caller.principal, sentRequestContext: call.sentRequestContext, progressToken }),
    ...(progress ? { tap: progress } : {}), extras: { ...(progress ? { emitTransient: progress } : {}), signal: ctx.mcpReq.signal, trace: span?.trace },
  })
  const result = await mcpFirstStep(running, async (run): Promise<CreateTaskResult> => ({ task: toMcpTask(run, deps.basePath) })).catch((error: unknown) => (span?.end(ids, 'Error'), Promise.reject(error)))
  span?.end(ids, 'task' in result ? undefined : 'tool_error')
  if ('task' in result) return result as CreateTaskResult
  // Invalid input (or a run that could not be stored): no task was created.
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, (result.content[0] as { text?: string } | undefined)?.text ?? 'The task could not be created', result._meta?.['toolroute/error'])
}
