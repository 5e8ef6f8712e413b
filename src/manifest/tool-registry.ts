import { isTool } from '../tool/is-tool.ts'
import { LazyTools } from './lazy-tools.ts'
import { mcpToolName } from '../protocol/mcp-tool-name.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/** Tools by id; two with one id, or with one MCP name (`'a b'`, `'a_b'`: `/mcp` could not tell them apart), refused. */
export function toolRegistry(tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>> | LazyTools): ReadonlyMap<string, AnyTool> {
  // A build's manifest: `toolroute build` already refused colliding ids and names.
  if (tools instanceof LazyTools) return tools
  const registry = new Map<string, AnyTool>()
  const names = new Map<string, string>()
  for (const tool of Array.isArray(tools) ? tools : Object.values(tools)) {
    if (!isTool(tool)) continue
    if (registry.has(tool.id) && registry.get(tool.id) !== tool) throw new TypeError(`Two tools have the id "${tool.id}"`)
    const name = mcpToolName(tool.id)
    const other = names.get(name)
    if (other !== undefined && other !== tool.id) throw new TypeError(`Tools "${other}" and "${tool.id}" have one MCP name "${name}"`)
    names.set(name, tool.id)
    registry.set(tool.id, tool)
  }
  return registry
}
