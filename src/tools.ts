/** `toolroute/tools`: the tool-definition surface alone, as `@mastra/core/tools` is. */
export { createTool } from './runtime/create-tool.ts'
export { isTool } from './tool/is-tool.ts'
export { Tool } from './runtime/tool.ts'
export type { ToolConstructor } from './runtime/tool.ts'
export { RequestContext } from './tool/request-context.ts'
export { isValidationError } from './schema/format-validation-errors.ts'
export type * from './tool/tool-types.ts'
export type * from './tool/tool-execution-context.ts'
