import { ProtocolError, ProtocolErrorCode, Server, isTaskAugmentedRequestParams, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server'
import { canAnswerForms } from './answers-forms.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { callMcpTask } from './call-mcp-task.ts'
import { callMcpTool, type McpCallDeps, type McpCallResult } from './call-mcp-tool.ts'
import { questionStateCodecFor } from './create-modern-mcp-handler.ts'
import { errorResult } from './mcp-tool-result.ts'
import { ParkedCalls } from './parked-calls.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { serveMcpTasks, mcpTasksCapability } from './serve-mcp-tasks.ts'
import { hasTasks } from './legacy-version.ts'
import { createTaskProgress } from './task-progress.ts'
import { findMcpTool, mcpToolIndex } from '../manifest/to-mcp-tool.ts'
import { mcpLoggingCapability } from './mcp-logging.ts'

export type { McpServerDeps } from './mcp-server-deps.ts'

export const defaultServerInfo = { name: 'toolroute', version: '0.1.0' }
/** Five minutes: a human answers a form; an evicted session object loses a pending question anyway. */
export const defaultElicitationTimeoutMs = 5 * 60 * 1000

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>

/**
 * SDK v2 serves no 2025-11-25 tasks, and its `tools/call` check refuses a task-augmented call's
 * answer (a `CreateTaskResult` has no `content`). Such a call skips that check: its result is
 * built from the run by `toMcpTask`. Every other call keeps the SDK's.
 */
class TaskServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler)
    if (method !== 'tools/call') return checked
    return (request, ctx) => (isTaskAugmentedRequestParams(request.params) && request.params.task !== undefined ? handler(request, ctx) : checked(request, ctx))
  }
}

/**
 * An MCP `Server` (SDK v2) serving a 2025 connection's `tools/list` and `tools/call` for a tool
 * registry, at `version` (the revision the connection speaks). A plain call is the 2026-07-28
 * handler's (`callMcpTool`): its questions come back as `input_required`, which the SDK's
 * legacy shim asks as real `elicitation/create` requests on this connection and answers by
 * re-entering the handler, so a question is written once for both generations. The shim's rounds
 * never leave this process, so their `requestState` is sealed with this isolate's key unless the
 * app set one. From 2025-11-25 a background tool's runs are tasks (`callMcpTask`,
 * `serveMcpTasks`); older revisions have none, so they are neither announced nor served there.
 * The SDK picks its JSON Schema validator by runtime (`workerd`: cfworker, no code generation).
 */
export function createMcpServer(deps: McpServerDeps, version: string): Server {
  const tasks = hasTasks(version)
  const codec = questionStateCodecFor(deps.requestStateKey)
  const server = new TaskServer(deps.serverInfo, {
    // Logging: the SDK serves logging/setLevel, and a call's logs go out at the level the session set (mcp-logging.ts).
    capabilities: { tools: {}, ...(tasks ? { tasks: mcpTasksCapability } : {}), ...mcpLoggingCapability },
    requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
    inputRequired: { roundTimeoutMs: deps.elicitationTimeoutMs },
  })
  const plain: McpCallDeps = {
    ...deps,
    requestState: codec,
    parked: new ParkedCalls<McpCallResult>(deps.elicitationTimeoutMs),
    // The connection's request stays open while the shim asks: nothing needs to outlive it.
    defer: (work) => void work.catch(() => {}),
    answersForms: () => canAnswerForms(server.getClientCapabilities()),
  }
  const index = mcpToolIndex(deps.tools)
  server.setRequestHandler('tools/list', () => (tasks ? index.taskList() : index.list()) as never)
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { params } = request
    const tool = await findMcpTool(deps.tools, params.name)
    // MCP lists an unknown tool among invalid params (a protocol error), not as a tool's failure.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`)
    const asTask = tasks && params.task !== undefined
    // A tool whose module cannot load fails its calls, as any tool's error (a task's, as a protocol error).
    if (ToolrouteError.isInstance(tool)) {
      if (asTask) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${tool.code}: ${tool.message}`, tool.toJSON().error)
      return errorResult(tool) as never
    }
    return (asTask ? callMcpTask(deps, tool, params, ctx) : callMcpTool(plain, tool, params, ctx)) as never
  })
  // Per server, so per session: what each task's progress has sent (task-progress.ts).
  if (tasks) serveMcpTasks(server, deps, createTaskProgress())
  return server
}
