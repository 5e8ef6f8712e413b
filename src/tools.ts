/** `toolroute/tools`: the tool-definition surface alone, as `@mastra/core/tools` is. */
export { createTool, isTool } from './tool/create-tool.ts'
export { Tool } from './tool/tool.ts'
export type { ToolConstructor } from './tool/tool.ts'
export { RequestContext } from './tool/request-context.ts'
export { isValidationError } from './schema/format-validation-errors.ts'
export type * from './tool/tool-types.ts'
