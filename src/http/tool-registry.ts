import { isTool } from '../tool/create-tool.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/** Tools by id, from an array or a module's exports; two tools with one id are refused. */
export function toolRegistry(tools: readonly AnyTool[] | Readonly<Record<string, AnyTool>>): ReadonlyMap<string, AnyTool> {
  const registry = new Map<string, AnyTool>()
  for (const tool of Array.isArray(tools) ? tools : Object.values(tools)) {
    if (!isTool(tool)) continue
    if (registry.has(tool.id) && registry.get(tool.id) !== tool) throw new TypeError(`Two tools have the id "${tool.id}"`)
    registry.set(tool.id, tool)
  }
  return registry
}
