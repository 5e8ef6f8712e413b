import type { AnyTool } from '../tool/tool-types.ts'
import { toMcpTool } from './to-mcp-tool.ts'
import { toToolDescriptor } from './to-tool-descriptor.ts'
import type { ToolListings } from './tool-manifest.ts'

/**
 * What the listing routes serve, computed from the tools themselves: `toolroute build` writes it
 * into the manifest (reading each schema's JSON Schema, which a Standard Schema computes when
 * first read).
 */
export function createToolListings(tools: readonly AnyTool[]): ToolListings {
  return { descriptors: tools.map(toToolDescriptor), mcpTools: tools.map(toMcpTool) }
}
