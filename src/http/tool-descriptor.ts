import type { AnyTool, ToolBackgroundOptions, ToolMcpOptions } from '../tool/tool-types.ts'
import type { JSONSchemaObject } from '../schema/compile-schema.ts'

/** What `GET /tools` says of a tool; schemas as JSON Schema (draft 2020-12). */
export interface ToolDescriptor {
  id: string
  description: string
  inputSchema: JSONSchemaObject
  outputSchema?: JSONSchemaObject
  suspendSchema?: JSONSchemaObject
  resumeSchema?: JSONSchemaObject
  requestContextSchema?: JSONSchemaObject
  strict?: boolean
  /** `true`, `false`, or `"conditional"` when a function decides per call. */
  requireApproval: boolean | 'conditional'
  background?: Pick<ToolBackgroundOptions, 'enabled' | 'timeoutMs' | 'maxRetries' | 'defaultDisposition'>
  inputExamples?: Array<{ input: Record<string, unknown> }>
  providerOptions?: Record<string, Record<string, unknown>>
  mcp?: ToolMcpOptions
}

const anyObject: JSONSchemaObject = { type: 'object', additionalProperties: true }

/** Builds a tool's descriptor from what `createTool` computed once. */
export function toToolDescriptor(tool: AnyTool): ToolDescriptor {
  const { schemas, options } = tool
  const background = tool.background
  return {
    id: tool.id,
    description: tool.description,
    inputSchema: schemas.input?.jsonSchema ?? anyObject,
    ...(schemas.output ? { outputSchema: schemas.output.outputJsonSchema } : {}),
    ...(schemas.suspend ? { suspendSchema: schemas.suspend.jsonSchema } : {}),
    ...(schemas.resume ? { resumeSchema: schemas.resume.jsonSchema } : {}),
    ...(schemas.requestContext ? { requestContextSchema: schemas.requestContext.jsonSchema } : {}),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    requireApproval: typeof tool.requireApproval === 'function' ? 'conditional' : tool.requireApproval,
    ...(background
      ? {
          background: Object.fromEntries(
            Object.entries({
              enabled: background.enabled,
              timeoutMs: background.timeoutMs,
              maxRetries: background.maxRetries,
              defaultDisposition: background.defaultDisposition,
            }).filter(([, value]) => value !== undefined),
          ),
        }
      : {}),
    ...(options.inputExamples ? { inputExamples: options.inputExamples } : {}),
    ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    ...(tool.mcp ? { mcp: tool.mcp } : {}),
  }
}

/** Whether a call of this tool runs in the background. */
export function isBackgroundTool(tool: AnyTool): boolean {
  return tool.background?.enabled === true && tool.background.defaultDisposition !== 'foreground'
}
