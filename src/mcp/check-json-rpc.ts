import { jsonRpcError } from './json-rpc-error.ts'
import { allowsBatches } from './legacy-version.ts'

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown }

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Message).jsonrpc === '2.0' &&
  (typeof (value as Message).method === 'string' || 'result' in value || 'error' in value)

/** The JSON-RPC checks of a 2025 request at `version` that the SDK answers with the wrong codes or not at all. */
export function checkJsonRpc(body: unknown, version: string): Response | undefined {
  const batch = Array.isArray(body)
  const messages = batch ? body : [body]
  if (batch && !allowsBatches(version)) return jsonRpcError(400, -32600, `Invalid Request: MCP ${version} has no JSON-RPC batches; send one message per request`)
  if (messages.length === 0) return jsonRpcError(400, -32600, 'Invalid Request: an empty batch')
  for (const message of messages) {
    if (!isMessage(message)) return jsonRpcError(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message', {}, (message as Message | null)?.id)
    if (batch && message.method === 'initialize') {
      return jsonRpcError(400, -32600, 'Invalid Request: initialize must not be part of a JSON-RPC batch', {}, message.id)
    }
    if (message.method === 'tools/call') {
      const params = message.params as { name?: unknown; arguments?: unknown } | undefined
      if (typeof params?.name !== 'string') return jsonRpcError(200, -32602, 'Invalid params: tools/call needs a string "name"', {}, message.id)
      const args = params.arguments
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
        return jsonRpcError(200, -32602, 'Invalid params: tools/call "arguments" must be an object of named arguments', {}, message.id)
      }
    }
  }
  return undefined
}
