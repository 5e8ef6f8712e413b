import type { McpSessionHost } from '../../mcp/mcp-session-host.ts'
import { mcpCallKeyHeader, mcpOpenHeader, mcpSessionIdHeader, mcpStatelessKeyHeader } from './create-mcp-session-object.ts'

/**
 * MCP sessions pinned to Durable Objects, each in the object named by its `Mcp-Session-Id`, so every request of the
 * session (a call, the answer to its question) reaches its server and transport; the caller header travels along.
 */
export function createDurableObjectMcpSessions(namespace: DurableObjectNamespace): McpSessionHost {
  const forward = (name: string, header: string, value: string, method: string, request: Request, text?: string, opening = false) => {
    const headers = new Headers(request.headers)
    headers.set(header, value)
    if (opening) headers.set(mcpOpenHeader, '1')
    const stub = namespace.get(namespace.idFromName(name))
    return stub.fetch(new Request(request.url, { method, headers, ...(text !== undefined ? { body: text } : {}) }))
  }
  return {
    handle: (sessionId, { request, text, initialize }) => forward(sessionId, mcpSessionIdHeader, sessionId, request.method, request, text, initialize),
    // A 2026-07-28 call in an object of its own, where the retry answering its question lands (it has no session).
    call: (callKey, { request, text }) => forward(`call:${callKey}`, mcpCallKeyHeader, callKey, 'POST', request, text),
    // A stateless 2025 call and its cancel, both in the object named by the principal and request id.
    stateless: (key, { request, text }) => forward(`stateless:${key}`, mcpStatelessKeyHeader, key, 'POST', request, text),
  }
}
