import type { AnyTool } from './tool-types.ts'

/** Whether a call of this tool runs in the background. */
export function isBackgroundTool(tool: AnyTool): boolean {
  return tool.background?.enabled === true && tool.background.defaultDisposition !== 'foreground'
}
