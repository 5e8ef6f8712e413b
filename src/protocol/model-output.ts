type ProviderOptions = { providerOptions?: Record<string, Record<string, unknown>> }

/** One part of a `content` model output (the AI SDK's `ToolResultOutput` content parts). */
export type ToolModelOutputPart = ProviderOptions &
  (
    | { type: 'text'; text: string }
    | { type: 'image-url'; url: string }
    | { type: 'image-data'; data: string; mediaType: string }
    | { type: 'file-url'; url: string; mediaType?: string }
    | { type: 'file-data'; data: string; mediaType: string; filename?: string }
    | { type: 'file-id'; fileId: string | Record<string, string> }
    | { type: 'image-file-id'; fileId: string | Record<string, string> }
    | { type: 'custom' }
  )

/** What the model sees of a tool's output (the AI SDK's `ToolResultOutput`). */
export type ToolModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: unknown }
  | { type: 'content'; value: ToolModelOutputPart[] }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: unknown }
  | { type: 'execution-denied'; reason?: string }
