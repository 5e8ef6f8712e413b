/** One part of a `content` model output (the AI SDK's `ToolResultOutput` content parts). */
export type ToolModelOutputPart =
  | { type: 'text'; text: string; providerOptions?: Record<string, Record<string, unknown>> }
  | { type: 'image-url'; url: string; providerOptions?: Record<string, Record<string, unknown>> }
  | { type: 'image-data'; data: string; mediaType: string; providerOptions?: Record<string, Record<string, unknown>> }
  | { type: 'file-url'; url: string; mediaType?: string; providerOptions?: Record<string, Record<string, unknown>> }
  | {
      type: 'file-data'
      data: string
      mediaType: string
      filename?: string
      providerOptions?: Record<string, Record<string, unknown>>
    }
  | { type: 'file-id'; fileId: string | Record<string, string>; providerOptions?: Record<string, Record<string, unknown>> }
  | {
      type: 'image-file-id'
      fileId: string | Record<string, string>
      providerOptions?: Record<string, Record<string, unknown>>
    }
  | { type: 'custom'; providerOptions?: Record<string, Record<string, unknown>> }

/** What the model sees of a tool's output (the AI SDK's `ToolResultOutput`). */
export type ToolModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: unknown }
  | { type: 'content'; value: ToolModelOutputPart[] }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: unknown }
  | { type: 'execution-denied'; reason?: string }
