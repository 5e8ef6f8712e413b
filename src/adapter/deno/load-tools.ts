import { isTool } from '../../tool/create-tool.ts'
import { mcpToolName } from '../../tool/mcp-tool-name.ts'
import type { AnyTool } from '../../tool/tool-types.ts'

/** The tools found in a directory, and the file each came from. */
export interface LoadedTools {
  tools: AnyTool[]
  /** Tool id → `tools/<file>`. */
  files: Map<string, string>
}

const moduleFile = /\.(ts|js|mts|mjs)$/
const notAModule = /\.(test|spec|d)\.[mc]?[tj]s$/

/** A directory as a `file:` URL ending in `/`; a relative path is taken from the working directory. */
function directoryUrl(directory: string | URL): URL {
  const url = typeof directory === 'string' ? new URL(directory, new URL(`${Deno.cwd()}/`, 'file:///')) : directory
  return url.href.endsWith('/') ? url : new URL(`${url.href}/`)
}

/**
 * Imports every module in `directory` (`tools/` by convention) and collects the tools they
 * export: what cli/build-tools.mjs compiles into the Worker, found at startup instead, so a
 * Deno user runs no build step. Two tools with one id, or with ids that map to one MCP name, are
 * refused with a message naming both files.
 */
export async function loadTools(directory: string | URL): Promise<LoadedTools> {
  const base = directoryUrl(directory)
  const folder = decodeURIComponent(base.pathname.split('/').at(-2) ?? 'tools')
  const names: string[] = []
  for await (const entry of Deno.readDir(base)) {
    if (entry.isFile && moduleFile.test(entry.name) && !notAModule.test(entry.name)) names.push(entry.name)
  }
  names.sort()

  const tools: AnyTool[] = []
  const files = new Map<string, string>()
  const problems: string[] = []
  const mcpNames = new Map<string, string>()
  for (const name of names) {
    const module: Record<string, unknown> = await import(new URL(name, base).href)
    for (const [exportName, value] of Object.entries(module)) {
      if (!isTool(value)) continue
      const where = `${folder}/${name} (export ${exportName})`
      const other = tools.find((tool) => tool.id === value.id)
      if (other && other !== value) problems.push(`tool id "${value.id}" is defined twice: ${files.get(value.id)} and ${where}`)
      if (other) continue
      const mcpName = mcpToolName(value.id)
      const clash = mcpNames.get(mcpName)
      if (clash !== undefined) {
        problems.push(`tool ids "${clash}" (${files.get(clash)}) and "${value.id}" (${where}) have one MCP name "${mcpName}"`)
        continue
      }
      mcpNames.set(mcpName, value.id)
      tools.push(value)
      files.set(value.id, where)
    }
  }
  if (problems.length > 0) throw new Error(`toolroute: the tools in ${folder}/ cannot be served:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
  return { tools, files }
}
