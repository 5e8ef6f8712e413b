// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { callMcpTool } from './call-mcp-tool.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { serveMcpTasks, mcpTasksCapability } from './serve-mcp-tasks.ts'
import { createTaskProgress } from './task-progress.ts'
import { mcpToolIndex } from './to-mcp-tool.ts'

export type { McpServerDeps } from './mcp-server-deps.ts'

export const defaultServerInfo = { name: 'toolroute', version: '0.1.0' }
/** Five minutes: a human answers a form; an evicted session object loses a pending question anyway. */
export const defaultElicitationTimeoutMs = 5 * 60 * 1000

// The SDK's default validator (Ajv) compiles schemas with `new Function`, which Workers forbid.
const jsonSchemaValidator = new CfWorkerJsonSchemaValidator()

/**
 * A low-level MCP `Server` serving `tools/list` and `tools/call` for a tool registry. The
 * listing is computed once per registry; calls run on toolroute's executor (`callMcpTool`), and a
 * background tool's runs are tasks (`serveMcpTasks`).
 */
export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(deps.serverInfo, { capabilities: { tools: {}, tasks: mcpTasksCapability }, jsonSchemaValidator })
  server.setRequestHandler(ListToolsRequestSchema, () => mcpToolIndex(deps.tools).taskList())
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callMcpTool(server, deps, request.params, extra))
  // Per server, so per session: what each task's progress has sent (task-progress.ts).
  serveMcpTasks(server, deps, createTaskProgress())
  return server
}
