import { ToolrouteError } from '../errors/toolroute-error.ts'
import { LazyTools } from './lazy-tools.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/** The tool `id` of a registry, its lazy module imported if need be (`EXECUTION_FAILED` when it cannot load). */
export async function loadTool(tools: ReadonlyMap<string, AnyTool>, id: string): Promise<AnyTool | undefined> {
  const tool = tools.get(id)
  if (tool !== undefined || !(tools instanceof LazyTools)) return tool
  return tools.load(id)
}

/** Whether a registry serves the tool `id`, loaded or not (a build's lazy tool before its first call). */
export function hasTool(tools: ReadonlyMap<string, AnyTool>, id: string): boolean {
  return tools.has(id) || (tools instanceof LazyTools && tools.routes.has(id))
}

/** The tool of a stored run, loaded if need be; `EXECUTION_FAILED` once it is no longer deployed. */
export async function toolOfRun(tools: ReadonlyMap<string, AnyTool>, run: { runId: string; toolId: string }): Promise<AnyTool> {
  const tool = await loadTool(tools, run.toolId)
  if (!tool) throw new ToolrouteError('EXECUTION_FAILED', `Tool ${run.toolId} of run ${run.runId} is no longer deployed`)
  return tool
}
