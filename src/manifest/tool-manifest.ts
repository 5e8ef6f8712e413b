import type { Tool as McpTool } from '@modelcontextprotocol/server'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { FoundTool } from '../tool/collect-tools.ts'

/** What the app needs to route a call to a tool without evaluating its module, written by `toolroute build`. */
export interface ToolRoute extends Omit<FoundTool, 'tool'> {
  /** Index of its module among the manifest's module loaders. */
  module: number
  /** `"conditional"` when a function decides per call. */
  requireApproval: boolean | 'conditional'
  /** It declares a suspend or resume schema (`suspendsOf`). */
  suspends: boolean
  background: boolean
}

/** What the listing routes serve, computed by `toolroute build` (OpenAPI is built from the descriptors). */
export interface ToolListings {
  descriptors: ToolDescriptor[]
  mcpTools: McpTool[]
}

/** The listings as `toolroute build` writes them: each part JSON text, or, when large, gzipped and base64-encoded. */
export type PackedToolListings = Record<keyof ToolListings, string>
