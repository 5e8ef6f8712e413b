// @ts-types="@modelcontextprotocol/sdk/types"
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js'
import type { JSONSchemaObject } from '../schema/compile-schema.ts'
import type { AnyTool } from '../tool/tool-types.ts'

const anyObject = { type: 'object', additionalProperties: true } as const

/** MCP requires `type: "object"` at the root of a tool's input and output schemas. */
function isObjectSchema(schema: JSONSchemaObject | undefined): schema is JSONSchemaObject & { type: 'object' } {
  return schema?.type === 'object'
}

/**
 * A tool as `tools/list` shows it: `name` = tool id, its description and JSON Schemas (computed
 * once by `createTool`), `annotations` and `_meta` from its `mcp` option, and the annotation's
 * title as the tool's display `title`.
 */
export function toMcpTool(tool: AnyTool): McpTool {
  const input = tool.schemas.input?.jsonSchema
  const output = tool.schemas.output?.outputJsonSchema
  const annotations = tool.mcp?.annotations
  return {
    name: tool.id,
    ...(typeof annotations?.title === 'string' ? { title: annotations.title } : {}),
    description: tool.description,
    // A non-object input schema cannot describe MCP arguments (always an object); the tool's own
    // validation still applies to whatever arrives.
    inputSchema: isObjectSchema(input) ? input : anyObject,
    ...(isObjectSchema(output) ? { outputSchema: output } : {}),
    ...(annotations ? { annotations } : {}),
    ...(tool.mcp?._meta ? { _meta: tool.mcp._meta } : {}),
  }
}
