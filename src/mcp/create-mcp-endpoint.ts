import type { Context } from 'hono'
import type { McpAppOptions } from './mcp-app-options.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
// First, before the MCP SDK: this `zod` import initialises Zod, whose lazy initialiser in a built
// Worker the SDK's `zod/v4` import would skip (`ZodLazy is not a constructor` at startup).
import { withCaller } from './mcp-caller.ts'
import { isLegacyRequest } from '@modelcontextprotocol/server'
import { answersForms } from './answers-forms.ts'
import { checkJsonRpc } from './check-json-rpc.ts'
import { legacyVersionOf } from './legacy-version.ts'
import { checkMcpOrigin } from './check-mcp-origin.ts'
import { createMemoryMcpSessions } from './create-memory-mcp-sessions.ts'
import { createModernMcpHandler, peekCallKey, questionStateCodecFor } from './create-modern-mcp-handler.ts'
import { deferOf } from '../caller/defer-of.ts'
import { defaultMaxInputBytes } from '../caller/read-body.ts'
import { defaultElicitationTimeoutMs, defaultServerInfo, mcpServerDepsOf } from './create-mcp-server.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { jsonRpcError, sessionNotFound } from './json-rpc-error.ts'
import type { McpSessionHost } from './mcp-session-host.ts'
import { isInitialize, readMcpBody } from './read-mcp-body.ts'
import { handleStatelessMcp } from './handle-stateless-mcp.ts'
import { StatelessCalls, callIdOf, cancelledIdOf, statelessCallKey } from './stateless-calls.ts'
import { resolveMcpCaller } from './resolve-mcp-caller.ts'
import { sessionIdPattern } from '../caller/principal-of.ts'

type McpEndpointDeps = { tools: ReadonlyMap<string, AnyTool>; options: McpAppOptions; runs: (c: Context) => RunHost; tracer?: McpServerDeps['tracer'] }

/** MCP over Streamable HTTP at `/mcp`, after the auth middleware. Every 2025 `initialize` opens a session (here, or a Durable Object each), where a call and its cancel meet. */
export function createMcpEndpoint(deps: McpEndpointDeps) {
  return mcpEndpoint(deps, createMemoryMcpSessions)
}

/** The same, whose sessions are only the options' own (`mcp.sessions`: a Worker's objects), stateless without: it bundles no in-process sessions. */
export function mcpEndpoint({ tools, options, runs, tracer }: McpEndpointDeps, memorySessions?: () => McpSessionHost) {
  const settings = typeof options.mcp === 'object' ? options.mcp : {}
  const maxBytes = options.maxInputBytes ?? defaultMaxInputBytes
  const depsOf = (c: Context): McpServerDeps => mcpServerDepsOf(tools, options, settings, () => runs(c), tracer)
  const modern = createModernMcpHandler(options.server ?? defaultServerInfo, settings.elicitationTimeoutMs ?? defaultElicitationTimeoutMs)
  const codecOf = (c: Context) => questionStateCodecFor(settings.requestStateKey ?? (c.env as { TOOLROUTE_MCP_STATE_KEY?: unknown } | undefined)?.TOOLROUTE_MCP_STATE_KEY)
  const calls = new StatelessCalls()
  const choice = settings.sessions ?? 'memory'
  const memory = choice === 'memory' ? memorySessions?.() : undefined
  const sessionsOf = (c: Context): McpSessionHost | undefined => (typeof choice === 'function' ? choice(c) : memory)

  return async (c: Context): Promise<Response> => {
    const forbidden = checkMcpOrigin(c.req.raw, settings.allowedOrigins, options.servedLocally)
    if (forbidden) return forbidden
    const method = c.req.method
    const sessionId = c.req.header('mcp-session-id')
    // GET serves only a session's reconnect to a call's stream it lost (Last-Event-ID): no standalone stream.
    const resuming = method === 'GET' && sessionId !== undefined && c.req.header('last-event-id') !== undefined
    // 405, not the tool routes' 404, for methods no MCP transport has.
    if ((method !== 'GET' && method !== 'POST' && method !== 'DELETE') || (method === 'GET' && !resuming) || (method === 'DELETE' && sessionId === undefined)) {
      return jsonRpcError(405, -32000, 'Method not allowed: questions and notifications go out on each call\'s own response', { allow: 'POST, DELETE' })
    }
    const sessions = sessionsOf(c)
    const deps = () => depsOf(c)
    if (method === 'DELETE' || resuming) {
      if (!sessions || !sessionIdPattern.test(sessionId!)) return sessionNotFound()
      const caller = await resolveMcpCaller(c, options, sessionId)
      return sessions.handle(sessionId!, { request: withCaller(c.req.raw, caller, undefined), initialize: false, caller, deps })
    }

    const read = await readMcpBody(c.req.raw, maxBytes)
    if (!read.ok) return read.response
    // 2026-07-28 requests (with the per-request envelope) go to the SDK's per-request handler, 2025 to its transport.
    const legacy = await isLegacyRequest(c.req.raw, read.body)
    // The principal of last resort (SPEC §12); an `initialize` belongs to the session it opens, under the server's id.
    const initializing = legacy && isInitialize(read.body)
    const opening = initializing && sessions ? crypto.randomUUID() : undefined
    const named = initializing ? undefined : sessionId
    const caller = await resolveMcpCaller(c, options, opening ?? named)
    const request = withCaller(c.req.raw, caller, read.text)
    const message = { request, text: read.text, body: read.body, initialize: false, caller, deps }
    if (!legacy) {
      // A call that may park on a question (a retry, or its client answers forms) runs where its retry lands.
      const call = read.body as { method?: unknown; params?: { _meta?: Record<string, unknown> } } | null
      const isCall = call?.method === 'tools/call'
      const callKey = isCall ? peekCallKey(read.body) : undefined
      if (isCall && sessions?.call && (callKey !== undefined || answersForms(call.params?._meta))) {
        return sessions.call(callKey ?? crypto.randomUUID(), message)
      }
      return modern.fetch(request, { ...deps(), requestState: codecOf(c), defer: deferOf(c) }, read.body)
    }
    const invalid = checkJsonRpc(read.body, legacyVersionOf(c.req.raw.headers, read.body))
    if (invalid) return invalid
    const answer = async (): Promise<Response> => {
      if (opening !== undefined) return sessions!.handle(opening, { ...message, initialize: true })
      if (named !== undefined) {
        if (!sessions || !sessionIdPattern.test(named)) return sessionNotFound()
        return sessions.handle(named, message)
      }
      // A stateless call and its cancel go to one place where the host can route them (stateless-calls.ts).
      const callId = callIdOf(read.body) ?? cancelledIdOf(read.body)
      const key = callId === undefined ? undefined : await statelessCallKey(caller.principal, callId)
      if (key !== undefined && sessions?.stateless) return sessions.stateless(key, message)
      return handleStatelessMcp(deps(), request, read.body, calls)
    }
    if (!Array.isArray(read.body) || read.body.length !== 1) return answer()
    // A batch of one is answered as a batch (JSON-RPC 2.0 §6): SDK v2 answers `[request]` bare.
    const response = await answer()
    if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response
    const answered: unknown = await response.json()
    return new Response(JSON.stringify(Array.isArray(answered) ? answered : [answered]), { status: response.status, headers: response.headers })
  }
}
