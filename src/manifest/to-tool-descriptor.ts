import type { JSONSchemaObject, ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'

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
