import { Server, isTaskAugmentedRequestParams, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server'
import { callMcpTool } from './call-mcp-tool.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { serveMcpTasks, mcpTasksCapability } from './serve-mcp-tasks.ts'
import { hasTasks } from './legacy-version.ts'
import { createTaskProgress } from './task-progress.ts'
import { mcpToolIndex } from './to-mcp-tool.ts'
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
 * registry, at `version` (the revision the connection speaks). The listing is computed once per
 * registry; calls run on toolroute's one call (`callMcpTool`), and from 2025-11-25 a background
 * tool's runs are tasks (`serveMcpTasks`): older revisions have none, so they are neither
 * announced nor served there. The SDK picks its JSON Schema validator by runtime (`workerd`:
 * cfworker, no code generation).
 */
export function createMcpServer(deps: McpServerDeps, version: string): Server {
  const tasks = hasTasks(version)
  // Logging: the SDK serves logging/setLevel, and a call's logs go out at the level the session set (mcp-logging.ts).
  const server = new TaskServer(deps.serverInfo, { capabilities: { tools: {}, ...(tasks ? { tasks: mcpTasksCapability } : {}), ...mcpLoggingCapability } })
  const index = mcpToolIndex(deps.tools)
  server.setRequestHandler('tools/list', () => (tasks ? index.taskList() : index.list()) as never)
  server.setRequestHandler('tools/call', (request, ctx) => callMcpTool(server, deps, request.params, ctx) as never)
  // Per server, so per session: what each task's progress has sent (task-progress.ts).
  if (tasks) serveMcpTasks(server, deps, createTaskProgress())
  return server
}
