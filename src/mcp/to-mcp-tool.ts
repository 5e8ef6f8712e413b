// @ts-types="@modelcontextprotocol/sdk/types"
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import type { JSONSchemaObject } from '../schema/compile-schema.ts'
import { mcpToolName } from '../tool/mcp-tool-name.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { isBackgroundTool } from '../tool/is-background-tool.ts'

const anyObject = { type: 'object', additionalProperties: true } as const

/** MCP requires `type: "object"` at the root of a tool's input and output schemas. */
function isObjectSchema(schema: JSONSchemaObject | undefined): schema is JSONSchemaObject & { type: 'object' } {
  return schema?.type === 'object'
}

/**
 * A tool as `tools/list` shows it: `name` mapped from the tool id (SPEC §1), its description and
 * JSON Schemas (computed once by `createTool`), `annotations` and `_meta` from its `mcp` option,
 * and its `title` option (else the annotation's title) as the display `title`.
 */
export function toMcpTool(tool: AnyTool): McpTool {
  const input = tool.schemas.input?.jsonSchema
  const output = tool.schemas.output?.outputJsonSchema
  const annotations = tool.mcp?.annotations
  const title = tool.title ?? annotations?.title
  return {
    name: mcpToolName(tool.id),
    ...(typeof title === 'string' ? { title } : {}),
    description: tool.description,
    // A non-object input schema cannot describe MCP arguments (always an object); the tool's own
    // validation still applies to whatever arrives.
    inputSchema: isObjectSchema(input) ? input : anyObject,
    ...(isObjectSchema(output) ? { outputSchema: output } : {}),
    ...(annotations ? { annotations } : {}),
    ...(tool.mcp?._meta ? { _meta: tool.mcp._meta } : {}),
  }
}

/** A registry as MCP sees it: the `tools/list` listing and the tools by MCP name. */
export interface McpToolIndex {
  list: { tools: McpTool[] }
  /**
   * The listing for 2025 clients, which have tasks: a background tool is a task, so its entry
   * says `execution.taskSupport: 'optional'` (a plain call still follows the run to its end).
   */
  taskList: { tools: McpTool[] }
  byName: ReadonlyMap<string, AnyTool>
}

const indexes = new WeakMap<ReadonlyMap<string, AnyTool>, McpToolIndex>()

/** Computed once per registry (the registry refused colliding names), shared by every server made for it. */
export function mcpToolIndex(tools: ReadonlyMap<string, AnyTool>): McpToolIndex {
  let index = indexes.get(tools)
  if (!index) {
    const all = [...tools.values()]
    const listed = all.map(toMcpTool)
    const taskList = { tools: listed.map((entry, i) => (isBackgroundTool(all[i]!) ? { ...entry, execution: { taskSupport: 'optional' as const } } : entry)) }
    index = { list: { tools: listed }, taskList, byName: new Map(all.map((tool) => [mcpToolName(tool.id), tool])) }
    indexes.set(tools, index)
  }
  return index
}
