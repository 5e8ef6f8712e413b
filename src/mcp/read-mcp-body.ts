import { readBody } from '../caller/read-body.ts'
import { isJsonMediaType } from '../caller/is-json-media-type.ts'
import { jsonRpcError } from './json-rpc-error.ts'

/** A POST body of /mcp: its text and parsed JSON, or the JSON-RPC error that answers it. */
type McpBody = { ok: true; text: string; body: unknown } | { ok: false; response: Response }

/** Reads a POST to /mcp through the one body reader (counted, JSON depth-guarded: the SDK's handlers recurse into it). */
export async function readMcpBody(request: Request, maxBytes: number): Promise<McpBody> {
  if (!isJsonMediaType(request.headers.get('content-type') ?? undefined)) {
    return { ok: false, response: jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json') }
  }
  const read = await readBody(request, { maxBytes, as: 'json' })
  if (!read.ok && read.error.code === 'PAYLOAD_TOO_LARGE') return { ok: false, response: jsonRpcError(413, -32000, `Request body is larger than ${maxBytes} bytes`) }
  if (!read.ok) return { ok: false, response: jsonRpcError(400, -32700, `Parse error: ${read.error.message}`) }
  if (read.body === undefined) return { ok: false, response: jsonRpcError(400, -32700, 'Parse error: Invalid JSON') }
  return { ok: true, text: read.text, body: read.body }
}

/** Whether a body is one `initialize` message (a batch or a JSON primitive has no `method`). */
export const isInitialize = (body: unknown): boolean => (body as { method?: unknown } | null)?.method === 'initialize'

/** Whether a JSON-RPC body (or batch) holds a `tools/call` that asks for progress (`_meta.progressToken`). */
export function wantsProgress(body: unknown): boolean {
  const messages = (Array.isArray(body) ? body : [body]) as ({ method?: unknown; params?: { _meta?: { progressToken?: unknown } } } | null)[]
  return messages.some((message) => message?.method === 'tools/call' && message.params?._meta?.progressToken !== undefined)
}

/** The task a lone `tasks/result` asks for, if the body is one. */
export function taskResultOf(body: unknown): string | undefined {
  const { method, params } = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as { method?: unknown; params?: { taskId?: unknown } }
  return method === 'tasks/result' && typeof params?.taskId === 'string' ? params.taskId : undefined
}
