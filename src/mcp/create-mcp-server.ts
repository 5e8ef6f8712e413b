import { ProtocolError, ProtocolErrorCode, Server, isTaskAugmentedRequestParams, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server'
import { canAnswerForms } from './answers-forms.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { callMcpTask, refuseTask } from './call-mcp-task.ts'
import { callMcpTool, type McpCallDeps, type McpCallResult } from './call-mcp-tool.ts'
import { questionStateCodecFor } from './create-modern-mcp-handler.ts'
import { errorResult } from './mcp-tool-result.ts'
import { ParkedCalls } from './parked-calls.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import type { McpAppOptions, ToolAppMcpOptions } from './mcp-app-options.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { CallTracer } from '../runs/call-tracer.ts'
import { serveMcpTasks, mcpTasksCapability } from './serve-mcp-tasks.ts'
import { hasTasks } from './legacy-version.ts'
import { findMcpTool, mcpToolIndex } from '../manifest/to-mcp-tool.ts'
import { mcpLoggingCapability } from './mcp-logging.ts'

export const defaultServerInfo = { name: 'toolroute', version: '0.1.0' }
/** Five minutes: a human answers a form; an evicted session object loses a pending question anyway. */
export const defaultElicitationTimeoutMs = 5 * 60 * 1000

/** A server's deps from the app's options and its `mcp` settings: `/mcp`'s in a request, and a Worker's MCP session object's from its env. */
export const mcpServerDepsOf = (tools: McpServerDeps['tools'], options: Pick<McpAppOptions, 'storeRuns' | 'server' | 'basePath'>, settings: ToolAppMcpOptions, runs: () => RunHost, tracer?: CallTracer): McpServerDeps => ({
  tools, runs,
  storeRuns: options.storeRuns ?? 'stateful',
  serverInfo: options.server ?? defaultServerInfo,
  basePath: options.basePath ?? '/',
  elicitationTimeoutMs: settings.elicitationTimeoutMs || defaultElicitationTimeoutMs,
  ...(settings.requestStateKey !== undefined ? { requestStateKey: settings.requestStateKey } : {}),
  ...(tracer ? { tracer } : {}),
})

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>

/** SDK v2's `tools/call` check refuses a 2025-11-25 task's answer (no `content`): a task-augmented call skips it. */
class TaskServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler)
    if (method !== 'tools/call') return checked
    return (request, ctx) => (isTaskAugmentedRequestParams(request.params) && request.params.task !== undefined ? handler(request, ctx) : checked(request, ctx))
  }
}

/** An MCP `Server` for a 2025 connection at `version`. The SDK's shim asks a call's questions as `elicitation/create` on this connection, never leaving this process: this isolate's key may seal them. */
export function createMcpServer(deps: McpServerDeps, version: string): Server {
  const tasks = hasTasks(version)
  const codec = questionStateCodecFor(deps.requestStateKey)
  const server = new TaskServer(deps.serverInfo, {
    capabilities: { tools: {}, ...(tasks ? { tasks: mcpTasksCapability } : {}), ...mcpLoggingCapability },
    requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
    inputRequired: { roundTimeoutMs: deps.elicitationTimeoutMs },
  })
  const plain: McpCallDeps = {
    ...deps,
    requestState: codec,
    parked: new ParkedCalls<McpCallResult>(deps.elicitationTimeoutMs),
    // The request stays open while the shim asks: nothing outlives it.
    defer: (work) => void work.catch(() => {}),
    answersForms: () => canAnswerForms(server.getClientCapabilities()),
  }
  const index = mcpToolIndex(deps.tools)
  server.setRequestHandler('tools/list', () => (tasks ? index.taskList() : index.list()) as never)
  server.setRequestHandler('tools/call', async ({ params }, ctx) => {
    const tool = await findMcpTool(deps.tools, params.name)
    // MCP lists an unknown tool among invalid params (a protocol error), not as a tool's failure.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`)
    const asTask = tasks && params.task !== undefined
    // A tool whose module cannot load fails its calls (a task's, as a protocol error).
    if (ToolrouteError.isInstance(tool)) return asTask ? refuseTask(tool) : (errorResult(tool) as never)
    return (asTask ? callMcpTask(deps, tool, params, ctx) : callMcpTool(plain, tool, params, ctx)) as never
  })
  if (tasks) serveMcpTasks(server, deps)
  return server
}
