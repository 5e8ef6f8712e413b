import { maxToolIdLength } from './assert-tool-options.ts'
import { isTool } from './is-tool.ts'
import { mcpToolName } from '../protocol/mcp-tool-name.ts'
import type { AnyTool } from './tool-types.ts'

const moduleFile = /\.(ts|js|mts|mjs)$/
const notAModule = /\.(test|spec|test-d|d)\.[mc]?[tj]s$/

/** Whether a file of `tools/` is a tool module (a test, a type test, a spec or a declaration file is not). */
export function isToolModuleFile(name: string): boolean {
  return moduleFile.test(name) && !notAModule.test(name)
}

/** A module of `tools/` as loaded: its file (`tools/weather-tool.ts`) and its exports. */
export interface ToolModule {
  file: string
  exports: Readonly<Record<string, unknown>>
}

/** A tool found in a module, and where: what a build or a loader serves. */
export interface FoundTool {
  tool: AnyTool
  id: string
  /** Its name under `/mcp` (SPEC §1). */
  mcpName: string
  /** Index of its module in the list given. */
  module: number
  /** The export holding the tool, and its file (`tools/weather-tool.ts`): what a load error names. */
  exportName: string
  file: string
}

/**
 * The tools exported by `modules`, in order, each once: the discovery rules of `toolroute build`
 * and Deno's `loadTools`. Two tools with one id, or one MCP name, are problems naming both files.
 */
export function collectTools(modules: readonly ToolModule[]): { tools: FoundTool[]; problems: string[] } {
  const tools: FoundTool[] = []
  const problems: string[] = []
  const byId = new Map<string, FoundTool & { where: string }>()
  const byMcpName = new Map<string, FoundTool & { where: string }>()
  modules.forEach(({ file, exports }, module) => {
    for (const [exportName, value] of Object.entries(exports)) {
      if (!isTool(value)) continue
      const where = `${file} (export ${exportName})`
      // createTool refuses such an id; a marked object from elsewhere may still carry one.
      if (typeof value.id !== 'string' || value.id.length === 0 || value.id.length > maxToolIdLength) {
        problems.push(`invalid tool id ${JSON.stringify(value.id)} in ${where}: a non-empty string of at most ${maxToolIdLength} characters`)
        continue
      }
      const other = byId.get(value.id)
      if (other && other.tool !== value) problems.push(`tool id ${JSON.stringify(value.id)} is defined twice: ${other.where} and ${where}`)
      if (other) continue
      const found = { tool: value, id: value.id, mcpName: mcpToolName(value.id), module, file, exportName, where }
      const clash = byMcpName.get(found.mcpName)
      if (clash) {
        problems.push(`tool ids ${JSON.stringify(clash.id)} (${clash.where}) and ${JSON.stringify(value.id)} (${where}) have one MCP name "${found.mcpName}"`)
        continue
      }
      byId.set(found.id, found)
      byMcpName.set(found.mcpName, found)
      tools.push({ tool: value, id: found.id, mcpName: found.mcpName, module, file, exportName })
    }
  })
  return { tools, problems }
}
