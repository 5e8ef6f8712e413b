// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { callMcpTool } from './call-mcp-tool.ts'
import { mcpToolIndex } from './to-mcp-tool.ts'

/** What an MCP server for a set of tools needs, wherever it lives (request, process, Durable Object). */
export interface McpServerDeps {
  tools: ReadonlyMap<string, AnyTool>
  /** Where runs that wait or run in the background are stored (the app's run host). */
  runs: () => RunHost
  storeRuns: 'stateful' | 'all'
  /** Name and version announced at `initialize`. */
  serverInfo: { name: string; version: string }
  /** The app's base path, for the HTTP routes named in results. */
  basePath: string
  /** How long a question to the user may wait for its answer. */
  elicitationTimeoutMs: number
  /** The configured secret for 2026-07-28 question states (`mcp.requestStateKey`), if any. */
  requestStateKey?: string
}

export const defaultServerInfo = { name: 'toolroute', version: '0.1.0' }
/** Five minutes: a human answers a form; an evicted session object loses a pending question anyway. */
export const defaultElicitationTimeoutMs = 5 * 60 * 1000

// The SDK's default validator (Ajv) compiles schemas with `new Function`, which Workers forbid.
const jsonSchemaValidator = new CfWorkerJsonSchemaValidator()

/**
 * A low-level MCP `Server` serving `tools/list` and `tools/call` for a tool registry. The
 * listing is computed once per registry; calls run on toolroute's executor (`callMcpTool`).
 */
export function createMcpServer(deps: McpServerDeps): Server {
  const server = new Server(deps.serverInfo, { capabilities: { tools: {} }, jsonSchemaValidator })
  const { list } = mcpToolIndex(deps.tools)
  server.setRequestHandler(ListToolsRequestSchema, () => list)
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callMcpTool(server, deps, request.params, extra))
  return server
}
