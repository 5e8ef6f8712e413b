import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { createMcpServer } from './create-mcp-server.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { legacyVersionOf } from './legacy-version.ts'
import { createMemoryEventStore } from './memory-event-store.ts'
import { cancelledIdOf } from './stateless-calls.ts'

/** How long a client waits before it reconnects to a stream it lost (the priming event's `retry`). */
const mcpRetryIntervalMs = 1000

/** One stateful MCP session: a server and its transport, kept between the session's requests. */
export type McpSession = Awaited<ReturnType<typeof createMcpSession>>

const internalUrl = 'https://session.toolroute.internal/mcp'

/** An empty `elicitation` (2025-06-18 clients send it) as the form capability it means: SDK v2 reads only `elicitation.form`. */
function withFormElicitation(body: unknown): unknown {
  const message = body as { method?: unknown; params?: { capabilities?: { elicitation?: unknown } } } | undefined
  const elicitation = message?.method === 'initialize' ? message.params?.capabilities?.elicitation : undefined
  if (typeof elicitation !== 'object' || elicitation === null || Object.keys(elicitation).length > 0) return body
  return { ...message, params: { ...message!.params, capabilities: { ...message!.params!.capabilities, elicitation: { form: {} } } } }
}

/** A session in SSE mode: a question goes out on its call's stream, and the answer, a later POST, reaches this transport. */
export async function createMcpSession(sessionId: string, deps: McpServerDeps, initialize: unknown) {
  const server = createMcpServer(deps, legacyVersionOf(new Headers(), initialize))
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionId,
    // Resumable streams: a client that lost one reconnects with GET and Last-Event-ID.
    eventStore: createMemoryEventStore(),
    retryInterval: mcpRetryIntervalMs,
  })
  await server.connect(transport)
  return {
    /** Handles one request of the session (`body` already parsed, for POST). */
    async handle(request: Request, body?: unknown): Promise<Response> {
      const response = await transport.handleRequest(request, body === undefined ? undefined : { parsedBody: withFormElicitation(body) })
      // The SDK sends no response for a cancelled call (as the spec asks): its stream would stay open.
      const cancelled = cancelledIdOf(body)
      if (cancelled !== undefined) transport.closeSSEStream(cancelled)
      return response
    },
    /** Replays the saved `initialize` into a fresh server: an evicted host serves the session again under its id. */
    async restore(initialize: unknown): Promise<void> {
      const post = (parsedBody: unknown, session: Record<string, string> = {}) => {
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session }
        return transport.handleRequest(new Request(internalUrl, { method: 'POST', headers, body: '{}' }), { parsedBody })
      }
      const replayed = await post(withFormElicitation(initialize))
      // Read to its end: the stream closes once the server has answered, capabilities recorded.
      await replayed.text()
      if (!replayed.ok) throw new Error(`The saved initialize of MCP session ${sessionId} was refused (${replayed.status})`)
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sessionId })
    },
    close: (): Promise<void> => server.close(),
  }
}
