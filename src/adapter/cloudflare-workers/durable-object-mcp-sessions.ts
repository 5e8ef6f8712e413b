import type { McpSessionHost } from '../../mcp/mcp-session-host.ts'
import { mcpSessionIdHeader } from './create-mcp-session-object.ts'

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
  }
}
