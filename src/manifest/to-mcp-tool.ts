import type { Tool as McpTool } from '@modelcontextprotocol/server'
import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'
import { mcpToolName } from '../protocol/mcp-tool-name.ts'
import { errorMessage, ToolrouteError } from '../errors/toolroute-error.ts'
import { LazyTools } from './lazy-tools.ts'
import { loadTool } from './load-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import { anyObject } from './to-tool-descriptor.ts'

/** MCP requires `type: "object"` at the root of a tool's input and output schemas. */
function isObjectSchema(schema: JSONSchemaObject | undefined): schema is JSONSchemaObject & { type: 'object' } {
  return schema?.type === 'object'
}

/** A tool as `tools/list` shows it: `name` mapped from its id (SPEC §1), its schemas and `mcp` option, its `title`. */
export function toMcpTool(tool: AnyTool): McpTool {
  const input = tool.schemas.input?.jsonSchema
  const output = tool.schemas.output?.outputJsonSchema
  const annotations = tool.mcp?.annotations
  const title = tool.title ?? annotations?.title
  return {
    name: mcpToolName(tool.id),
    ...(typeof title === 'string' ? { title } : {}),
    description: tool.description,
    // MCP arguments are always an object; the tool's own validation still applies to what arrives.
    inputSchema: isObjectSchema(input) ? input : anyObject,
    ...(isObjectSchema(output) ? { outputSchema: output } : {}),
    ...(annotations ? { annotations } : {}),
    ...(tool.mcp?._meta ? { _meta: tool.mcp._meta } : {}),
  }
}

/** A registry as MCP sees it: the `tools/list` listing (read when first asked for) and the tool ids by MCP name. */
export interface McpToolIndex {
  list(): Promise<{ tools: McpTool[] }>
  /** The listing for 2025 clients, where a background tool is a task: `execution.taskSupport: 'optional'`. */
  taskList(): Promise<{ tools: McpTool[] }>
  ids: ReadonlyMap<string, string>
}

const indexes = new WeakMap<ReadonlyMap<string, AnyTool>, McpToolIndex>()

/** Computed once per registry, shared by every server made for it; lazy tools list from their manifest. */
export function mcpToolIndex(tools: ReadonlyMap<string, AnyTool>): McpToolIndex {
  const known = indexes.get(tools)
  if (known) return known
  const lazy = tools instanceof LazyTools ? tools : undefined
  const routes = lazy
    ? [...lazy.routes.values()]
    : [...tools].map(([id, tool]) => ({ id, mcpName: mcpToolName(id), background: isBackgroundTool(tool) }))
  const background = new Set(routes.filter((route) => route.background).map((route) => route.mcpName))
  let list: Promise<{ tools: McpTool[] }> | undefined
  let taskList: Promise<{ tools: McpTool[] }> | undefined
  const listed = () =>
    (list ??= lazy ? lazy.listing('mcpTools').then((mcpTools) => ({ tools: mcpTools })) : Promise.resolve({ tools: [...tools.values()].map(toMcpTool) }))
  const index: McpToolIndex = {
    list: listed,
    taskList: () =>
      (taskList ??= listed().then(({ tools: entries }) => ({
        tools: entries.map((entry) => (background.has(entry.name) ? { ...entry, execution: { taskSupport: 'optional' as const } } : entry)),
      }))),
    ids: new Map(routes.map((route) => [route.mcpName, route.id])),
  }
  indexes.set(tools, index)
  return index
}

/** The tool an MCP client names: `undefined` if unknown, the `ToolrouteError` of a module that cannot load. */
export async function findMcpTool(tools: ReadonlyMap<string, AnyTool>, name: string): Promise<AnyTool | ToolrouteError | undefined> {
  const id = mcpToolIndex(tools).ids.get(name)
  try {
    return id === undefined ? undefined : await loadTool(tools, id)
  } catch (error) {
    return ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error))
  }
}
