import type { McpSessionHost } from '../../mcp/mcp-session-host.ts'
import { mcpCallKeyHeader, mcpSessionIdHeader, mcpStatelessKeyHeader } from './create-mcp-session-object.ts'

/**
 * MCP sessions pinned to Durable Objects: each session lives in the object named by its
 * `Mcp-Session-Id`, so every request of the session (a call, the client's answer to a question
 * asked during it) reaches the one object holding its server and transport. The caller header
 * resolved here travels along; the object cannot be reached from outside the Worker.
 */
export function createDurableObjectMcpSessions(namespace: DurableObjectNamespace): McpSessionHost {
  return {
    handle(sessionId, { request, text }) {
      const headers = new Headers(request.headers)
      headers.set(mcpSessionIdHeader, sessionId)
      const stub = namespace.get(namespace.idFromName(sessionId))
      return stub.fetch(new Request(request.url, { method: request.method, headers, ...(text !== undefined ? { body: text } : {}) }))
    },
    // A 2026-07-28 call in an object of its own (`call:<key>`), where the retry that answers its
    // question lands: 2026-07-28 has no session to pin it to.
    call(callKey, { request, text }) {
      const headers = new Headers(request.headers)
      headers.set(mcpCallKeyHeader, callKey)
      const stub = namespace.get(namespace.idFromName(`call:${callKey}`))
      return stub.fetch(new Request(request.url, { method: 'POST', headers, ...(text !== undefined ? { body: text } : {}) }))
    },
    // A stateless 2025 call and its cancel, both in the object named by the principal and request id.
    stateless(key, { request, text }) {
      const headers = new Headers(request.headers)
      headers.set(mcpStatelessKeyHeader, key)
      const stub = namespace.get(namespace.idFromName(`stateless:${key}`))
      return stub.fetch(new Request(request.url, { method: 'POST', headers, ...(text !== undefined ? { body: text } : {}) }))
    },
  }
}
