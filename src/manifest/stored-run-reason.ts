import { isBackgroundTool } from '../tool/is-background-tool.ts'
import type { ToolRoute } from './tool-manifest.ts'
import type { AnyTool } from '../tool/tool-types.ts'

/**
 * Whether a call of this tool may stop to be resumed: it declares a suspend or resume schema, or
 * its `execute` names `suspend` (Mastra lets a tool suspend without schemas). The name is read
 * from the function's source, where it survives bundling and minifying (`context.suspend(…)`,
 * `{ suspend }`, `agent?.suspend`); a helper handed the whole context is not seen, and its
 * suspension fails as a call that needs a run in an app that keeps none.
 */
export function suspendsOf(tool: AnyTool): boolean {
  if (tool.suspendSchema || tool.resumeSchema) return true
  // The option as written: HTTP and MCP run it (`tool.execute` is the direct call's wrapper).
  const execute: unknown = tool.options?.execute
  return typeof execute === 'function' && /\bsuspend\b/.test(Function.prototype.toString.call(execute))
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
