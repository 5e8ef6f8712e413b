import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import { suspendsOf } from './stored-run-reason.ts'
import type { FoundTool } from '../tool/collect-tools.ts'
import { toMcpTool } from './to-mcp-tool.ts'
import { toToolDescriptor } from './to-tool-descriptor.ts'
import type { ToolListings, ToolRoute } from './tool-manifest.ts'

/** What `toolroute build` writes for `LazyTools`: each tool's routing facts, the module loaders' order, and the listings. */
export interface ToolManifest {
  /** The files whose module a loader imports, in `ToolRoute.module` order (files that export a tool). */
  files: string[]
  routes: ToolRoute[]
  listings: ToolListings
}

/** The manifest of the tools `collectTools` found, at build time: the Worker lists them without evaluating one. */
export function createToolManifest(found: readonly FoundTool[]): ToolManifest {
  const files = [...new Set(found.map(({ file }) => file))]
  const routes = found.map(({ tool, id, mcpName, file, exportName }): ToolRoute => ({
    id,
    mcpName,
    module: files.indexOf(file),
    exportName,
    file,
    requireApproval: typeof tool.requireApproval === 'function' ? 'conditional' : tool.requireApproval,
    suspends: suspendsOf(tool),
    background: isBackgroundTool(tool),
  }))
  const tools = found.map(({ tool }) => tool)
  return { files, routes, listings: { descriptors: tools.map(toToolDescriptor), mcpTools: tools.map(toMcpTool) } }
}
