import { jsonRpcError } from './json-rpc-error.ts'

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown }

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Message).jsonrpc === '2.0' &&
  (typeof (value as Message).method === 'string' || 'result' in value || 'error' in value)

function answer(status: number, code: number, message: string, id: unknown): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: typeof id === 'string' || typeof id === 'number' ? id : null }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/**
 * The JSON-RPC checks the 2025 transport answers with the wrong codes: well-formed JSON that is
 * not JSON-RPC (or an empty batch) is `-32600` Invalid Request, not a parse error; a `tools/call`
 * without a string `name` is `-32602` Invalid Params, not an internal error carrying the schema
 * library's dump. Everything else goes on to the SDK.
 */
export function checkJsonRpc(body: unknown): Response | undefined {
  const messages = Array.isArray(body) ? body : [body]
  if (messages.length === 0) return jsonRpcError(400, -32600, 'Invalid Request: an empty batch')
  for (const message of messages) {
    if (!isMessage(message)) return answer(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message', (message as Message | null)?.id)
    if (message.method === 'tools/call') {
      const params = message.params as { name?: unknown } | undefined
      if (typeof params?.name !== 'string') return answer(200, -32602, 'Invalid params: tools/call needs a string "name"', message.id)
    }
  }
  return undefined
}
