import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import type { ToolRoute } from './tool-manifest.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/**
 * Whether a call may stop to be resumed: the tool declares a suspend or resume schema, never guessed
 * from `execute` (one that suspends undeclared, where no runs are kept, fails with `EXECUTION_FAILED`).
 */
export function suspendsOf(tool: AnyTool): boolean {
  return tool.suspendSchema !== undefined || tool.resumeSchema !== undefined
}

/** Why calls of this tool (or route) may be stored as runs; `undefined` when every call completes in its request. */
export function storedRunReason(tool: AnyTool | ToolRoute): string | undefined {
  const route = 'exportName' in tool ? tool : undefined
  const approval = route ? route.requireApproval !== false : Boolean((tool as AnyTool).requireApproval)
  if (approval) return `tool "${tool.id}" may wait for approval`
  if (route ? route.background : isBackgroundTool(tool as AnyTool)) return `tool "${tool.id}" runs in the background`
  if (route ? route.suspends : suspendsOf(tool as AnyTool)) return `tool "${tool.id}" may suspend`
  return undefined
}
