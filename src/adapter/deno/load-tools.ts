import { errorMessage, ToolrouteError } from '../../errors/toolroute-error.ts'
import { createTool } from '../../runtime/create-tool.ts'
import { collectTools, isToolModuleFile, type ToolModule } from '../../tool/collect-tools.ts'
import type { AnyTool } from '../../tool/tool-types.ts'

/** The tools found in a directory, and the file each came from. */
export interface LoadedTools {
  tools: AnyTool[]
  /** Tool id → `tools/<file>`. */
  files: Map<string, string>
  /** Modules that failed to load, each as `tools/<file>:<line>: <what>`: each served as a tool that answers `503 BUILD_FAILED`. */
  failed: string[]
}

/** "<file>:<line>: <what>", as `toolroute dev` says a file that does not build: the error's first line, without colours. */
function failureOf(file: string, url: string, error: unknown): string {
  const [message, stack] = [errorMessage(error), String((error as { stack?: unknown } | null)?.stack ?? '')].map((text) => text.replace(/\x1b\[[0-9;]*m/g, '')) as [string, string]
  const line = `${message}\n${stack}`.split(url)[1]?.match(/^:(\d+):\d+/)?.[1]
  // A first line that opens a list ("… Supported schemes:") keeps its sentences before the list.
  return `${file}${line ? `:${line}` : ''}: ${message.split('\n')[0]!.replace(/(?<=\.)\s*[^.]*:$/, '')}`
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
  const failed: [file: string, failure: string][] = []
  for (const name of names) {
    // As on Workers, a module that fails to load fails only its own tool: the server still starts.
    const [file, url] = [`${folder}/${name}`, new URL(name, base).href]
    try {
      modules.push({ file, exports: await import(url) })
    } catch (error) {
      failed.push([file, failureOf(file, url, error)])
      console.error(`toolroute: ${file} failed to load (its tool answers 503 BUILD_FAILED; the others are served):`, error)
    }
  }
  const found = collectTools(modules)
  if (found.problems.length > 0) throw new Error(`toolroute: the tools in ${folder}/ cannot be served:\n${found.problems.map((problem) => `  - ${problem}`).join('\n')}`)
  const tools = found.tools.map(({ tool }) => tool)
  const files = new Map(found.tools.map(({ id, file, exportName }) => [id, `${file} (export ${exportName})`]))
  // Its tool's id is unknown (the module never ran): it is served under its file's name, unless a tool holds that name.
  for (const [file, failure] of failed) {
    const id = file.slice(folder.length + 1).replace(/\.[mc]?[tj]s$/, '')
    if (files.has(id)) continue
    tools.push(createTool({ id, description: `Failed to load: ${failure}`, execute: async () => { throw new ToolrouteError('BUILD_FAILED', failure) } }) as AnyTool)
    files.set(id, `${file} (failed to load)`)
  }
  return { tools, files, failed: failed.map(([, failure]) => failure) }
}
