import { LazyTools } from './lazy-tools.ts'
import type { AnyTool } from './tool-types.ts'

/**
 * The tool `id` of a registry, for a caller about to run it: at once when the registry holds it
 * (an app of plain tools, or a lazy tool already loaded), else its module's first import. Only
 * the first call of a lazy tool pays a promise; rejects with `EXECUTION_FAILED` when its module
 * cannot load.
 */
export function loadTool(tools: ReadonlyMap<string, AnyTool>, id: string): AnyTool | undefined | Promise<AnyTool | undefined> {
  const tool = tools.get(id)
  if (tool !== undefined || !(tools instanceof LazyTools)) return tool
  return tools.load(id)
}
