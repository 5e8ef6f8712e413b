import type { ToolDescriptorBackground } from './tool-descriptor.ts'

/** Whether a call of this tool (or of the tool a descriptor lists) runs in the background. */
export function isBackgroundTool(tool: { background?: ToolDescriptorBackground | undefined }): boolean {
  return tool.background?.enabled === true && tool.background.defaultDisposition !== 'foreground'
}
