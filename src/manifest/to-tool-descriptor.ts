import type { JSONSchemaObject, ToolDescriptor, ToolDescriptorBackground } from '../protocol/tool-descriptor.ts'
import type { AnyTool, ToolBackgroundOptions } from '../tool/tool-types.ts'

export const anyObject = { type: 'object' as const, additionalProperties: true } satisfies JSONSchemaObject

/** Builds a tool's descriptor from what `createTool` computed once. */
export function toToolDescriptor(tool: AnyTool): ToolDescriptor {
  const { schemas, options } = tool
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
    ...(tool.background ? { background: backgroundOf(tool.background) } : {}),
    ...(options.inputExamples ? { inputExamples: options.inputExamples } : {}),
    ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    ...(tool.mcp ? { mcp: tool.mcp } : {}),
  }
}

/** The plain-data fields of a `background` option that are set. */
function backgroundOf({ enabled, timeoutMs, maxRetries, defaultDisposition }: ToolBackgroundOptions): ToolDescriptorBackground {
  return Object.fromEntries(Object.entries({ enabled, timeoutMs, maxRetries, defaultDisposition }).filter(([, value]) => value !== undefined))
}
