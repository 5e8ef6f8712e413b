/** A JSON Schema (draft 2020-12) as it travels: a plain object. */
export type JSONSchemaObject = Record<string, unknown>

/** MCP tool annotations (hints for clients). */
export interface ToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
  [key: string]: unknown
}

/** A tool's `mcp` option: its annotations and `_meta`, as `tools/list` shows them. */
export interface ToolMcpOptions {
  annotations?: ToolAnnotations
  _meta?: Record<string, unknown>
  /**
   * A background tool's calls under 2026-07-28 are tasks for a client of the tasks extension, and
   * are followed to their end in the call for any other (`'optional'`, the default). `'required'`
   * refuses a call from a client that does not declare the extension (-32021) instead.
   */
  taskSupport?: 'optional' | 'required'
  /**
   * A background tool that gathers its input first (SEP-2663's composition of multi round-trip
   * requests and tasks): a 2026-07-28 tasks client's call waits for the run's first question and
   * answers it inline as `input_required`, and the retry that answers it is the call that becomes
   * the task. A run that asks nothing is a task once it settles or asks; default: a task at once.
   */
  askBeforeTask?: boolean
  /**
   * Client capabilities the tool cannot work without (`{ elicitation: {} }`): a 2026-07-28 call
   * whose request does not declare one of them is refused with `-32021` (HTTP 400, naming what is
   * missing) before the tool runs, as SEP-2575 asks of a server that needs an undeclared capability.
   */
  requiredClientCapabilities?: Record<string, Record<string, unknown>>
}

/** What a descriptor says of a background tool: the plain-data part of its `background` option. */
export interface ToolDescriptorBackground {
  enabled?: boolean
  /** Abort the attempt after this long (default 10 minutes). */
  timeoutMs?: number
  /** Further attempts after a failed one (default 0). */
  maxRetries?: number
  defaultDisposition?: 'foreground' | 'deferred'
}

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
  background?: ToolDescriptorBackground
  inputExamples?: Array<{ input: Record<string, unknown> }>
  providerOptions?: Record<string, Record<string, unknown>>
  mcp?: ToolMcpOptions
}
