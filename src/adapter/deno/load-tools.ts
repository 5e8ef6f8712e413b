import { collectTools, isToolModuleFile, type ToolModule } from '../../tool/collect-tools.ts'
import type { AnyTool } from '../../tool/tool-types.ts'

/** The tools found in a directory, and the file each came from. */
export interface LoadedTools {
  tools: AnyTool[]
  /** Tool id → `tools/<file>`. */
  files: Map<string, string>
  /** Modules that failed to load, each as `tools/<file>: <what>`: their tools are not served, the others are. */
  failed: string[]
}

/**
 * Imports every module in `directory` (`tools/` by convention) and collects the tools they export, as
 * cli/build-tools.mjs does for the Worker but at startup, so a Deno user runs no build step. The rules
 * (what a tool is, colliding ids) are collectTools', shared with the build.
 */
export async function loadTools(directory: string | URL): Promise<LoadedTools> {
  // The directory as a `file:` URL ending in `/`; a relative path is taken from the working directory.
  const url = typeof directory === 'string' ? new URL(directory, new URL(`${Deno.cwd()}/`, 'file:///')) : directory
  const base = url.href.endsWith('/') ? url : new URL(`${url.href}/`)
  const folder = decodeURIComponent(base.pathname.split('/').at(-2) ?? 'tools')
  const entries = await Array.fromAsync(Deno.readDir(base))
  const names = entries.filter((entry) => entry.isFile && isToolModuleFile(entry.name)).map((entry) => entry.name).sort()
  const modules: ToolModule[] = []
  const failed: string[] = []
  for (const name of names) {
    // As on Workers, a module that fails to load fails only its own tools: the server still starts.
    try {
      modules.push({ file: `${folder}/${name}`, exports: await import(new URL(name, base).href) })
    } catch (error) {
      failed.push(`${folder}/${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
      console.error(`toolroute: ${failed.at(-1)} (its tools are not served until it loads)`)
    }
  }
  const found = collectTools(modules)
  if (found.problems.length > 0) throw new Error(`toolroute: the tools in ${folder}/ cannot be served:\n${found.problems.map((problem) => `  - ${problem}`).join('\n')}`)
  const tools = found.tools.map(({ tool }) => tool)
  const files = new Map(found.tools.map(({ id, file, exportName }) => [id, `${file} (export ${exportName})`]))
  return { tools, files, failed }
}
