import { isBackgroundTool } from '../tool/is-background-tool.ts'
import type { ToolRoute } from './tool-manifest.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/**
 * Whether a call of this tool may stop to be resumed: it declares a suspend or resume schema.
 * Declared, never guessed from `execute`'s source (Mastra lets a tool suspend without schemas): a
 * tool that suspends without declaring one, in an app whose build therefore keeps no runs, fails
 * that call with `EXECUTION_FAILED`, saying to declare one.
 */
export function suspendsOf(tool: AnyTool): boolean {
  return tool.suspendSchema !== undefined || tool.resumeSchema !== undefined
}

/**
 * Why calls of this tool (or of the tool a build's manifest routes) may be stored as runs, for
 * a message; `undefined` when every call completes in its request. Read by `toolroute build`,
 * which gives the Worker its run store only when something can reach it, and by `createWorker`.
 */
export function storedRunReason(tool: AnyTool | ToolRoute): string | undefined {
  const route = 'exportName' in tool ? tool : undefined
  const approval = route ? route.requireApproval !== false : Boolean((tool as AnyTool).requireApproval)
  if (approval) return `tool "${tool.id}" may wait for approval`
  if (route ? route.background : isBackgroundTool(tool as AnyTool)) return `tool "${tool.id}" runs in the background`
  if (route ? route.suspends : suspendsOf(tool as AnyTool)) return `tool "${tool.id}" may suspend`
  return undefined
}
