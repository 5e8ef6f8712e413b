import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { createMcpServer, type McpServerDeps } from './create-mcp-server.ts'
import { legacyVersionOf } from './legacy-version.ts'
import { createMemoryEventStore } from './memory-event-store.ts'

/** How long a client waits before it reconnects to a stream it lost (the priming event's `retry`). */
export const mcpRetryIntervalMs = 1000

/** One stateful MCP session: a server and its transport, kept between the session's requests. */
export interface McpSession {
  readonly sessionId: string
  /** Handles one request of the session (`body` already parsed, for POST). */
  handle(request: Request, body?: unknown): Promise<Response>
  /**
   * Replays the session's saved `initialize` (and `notifications/initialized`) into a fresh
   * server, so a host that lost its memory (an evicted Durable Object) serves the session again
   * under the same id, with the client's capabilities, without the client noticing.
   */
  restore(initialize: unknown): Promise<void>
  close(): Promise<void>
}

const internalUrl = 'https://session.toolroute.internal/mcp'

/**
 * An `initialize` whose `elicitation` capability is empty, as the form capability it means
 * (MCP 2025-11-25: "an empty object is equivalent to declaring support for form mode only",
 * which 2025-06-18 clients, the v1 SDK's among them, send). SDK v2 reads only `elicitation.form`
 * and would refuse every question to such a client.
 */
function withFormElicitation(body: unknown): unknown {
  const message = body as { method?: unknown; params?: { capabilities?: { elicitation?: unknown } } } | undefined
  const elicitation = message?.method === 'initialize' ? message.params?.capabilities?.elicitation : undefined
  if (typeof elicitation !== 'object' || elicitation === null || Object.keys(elicitation).length > 0) return body
  return { ...message, params: { ...message!.params, capabilities: { ...message!.params!.capabilities, elicitation: { form: {} } } } }
}

/**
 * A session in SSE mode: a call's response is an event stream, so a tool's question
 * (elicitation) goes out on it and the client's answer, a later POST, reaches this transport.
 * JSON responses cannot carry such questions (the SDK drops them). `initialize` is the request
 * that opens (or opened) the session: its revision decides what the server offers.
 */
export async function createMcpSession(sessionId: string, deps: McpServerDeps, initialize: unknown): Promise<McpSession> {
  const server = createMcpServer(deps, legacyVersionOf(new Headers(), initialize))
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionId,
    // Resumable streams: a priming event (id, retry) opens each, and a client that lost one
    // reconnects with GET and Last-Event-ID.
    eventStore: createMemoryEventStore(),
    retryInterval: mcpRetryIntervalMs,
  })
  await server.connect(transport)
  return {
    sessionId,
    async handle(request, body) {
      const response = await transport.handleRequest(request, body === undefined ? undefined : { parsedBody: withFormElicitation(body) })
      // The SDK aborts a cancelled call but, as the spec asks, sends no response for it, so its
      // stream would stay open on keep-alives: close it once the cancel has been handled.
      const cancelled = (body as { method?: unknown; params?: { requestId?: unknown } } | undefined)
      if (cancelled?.method === 'notifications/cancelled' && (typeof cancelled.params?.requestId === 'string' || typeof cancelled.params?.requestId === 'number')) {
        transport.closeSSEStream(cancelled.params.requestId)
      }
      return response
    },
    async restore(initialize) {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
      const replayed = await transport.handleRequest(new Request(internalUrl, { method: 'POST', headers, body: '{}' }), { parsedBody: withFormElicitation(initialize) })
      // Read to its end: the stream closes once the server has answered, capabilities recorded.
      await replayed.text()
      if (!replayed.ok) throw new Error(`The saved initialize of MCP session ${sessionId} was refused (${replayed.status})`)
      const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' }
      await transport.handleRequest(new Request(internalUrl, { method: 'POST', headers: { ...headers, 'mcp-session-id': sessionId }, body: '{}' }), {
        parsedBody: initialized,
      })
    },
    close: () => server.close(),
  }
}
