import type { Context } from 'hono'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ToolAppOptions } from '../http/tool-app-options.ts'

export interface McpHandlerOptions {
  tools: ReadonlyMap<string, AnyTool>
  options: ToolAppOptions
  runs: (c: Context) => RunHost
}

/** MCP over Streamable HTTP at `/mcp` (issue #5: not built yet; answers 501 until then). */
export function createMcpHandler(_options: McpHandlerOptions) {
  return (c: Context) => c.json({ error: { code: 'NOT_IMPLEMENTED', message: 'MCP is not served yet' } }, 501)
}
