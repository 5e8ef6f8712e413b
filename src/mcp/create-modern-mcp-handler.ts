import { ProtocolError, Server, createMcpHandler, type CallToolResult, createRequestStateCodec, type RequestStateCodec, type ServerContext, type Tool } from '@modelcontextprotocol/server'
import { callMcpTool, type McpCallDeps, type McpCallResult, type QuestionState } from './call-mcp-tool.ts'
import { ParkedCalls } from './parked-calls.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { readCaller } from './mcp-caller.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { errorResult } from './mcp-tool-result.ts'
import { findMcpTool, mcpToolIndex } from '../manifest/to-mcp-tool.ts'
import { serveModernTasks, taskRequiredRefusal } from './serve-modern-tasks.ts'
import { mcpLoggingCapability } from './mcp-logging.ts'
import { refuseMcpParamHeaders } from './check-mcp-param-headers.ts'
import { answerLateAsSse, lateAnswerTiming } from './answer-late-as-sse.ts'

/** How long a question asked under 2026-07-28 may wait for its answer (the run itself waits longer, for HTTP). */
const questionTtlSeconds = 60 * 60

let isolateKey: Uint8Array | undefined
const codecs = new Map<string | Uint8Array, RequestStateCodec<QuestionState>>()

/**
 * The `requestState` codec for a configured secret (≥ 32 characters), else for a random key of this
 * isolate. HMAC-signed and bound to the caller's principal: a forged, expired or another principal's
 * state is refused (`-32602`) before any tool code runs. Every isolate a retry may reach needs the
 * same key (`requestStateKey`, `TOOLROUTE_MCP_STATE_KEY`).
 */
export function questionStateCodecFor(secret: unknown): RequestStateCodec<QuestionState> {
  const key = typeof secret === 'string' && secret.length >= 32 ? secret : (isolateKey ??= crypto.getRandomValues(new Uint8Array(32)))
  const known = codecs.get(key)
  if (known) return known
  const bind = (ctx: ServerContext) => `tools/call\0${readCaller(ctx.http?.req?.headers).principal ?? ''}`
  const codec = createRequestStateCodec<QuestionState>({ key, ttlSeconds: questionTtlSeconds, bind })
  codecs.set(key, codec)
  return codec
}

/** The call key a 2026-07-28 retry's `requestState` names, read unverified: it only routes, and the target verifies. */
export function peekCallKey(body: unknown): string | undefined {
  const state = (body as { params?: { requestState?: unknown } } | null)?.params?.requestState
  if (typeof state !== 'string') return undefined
  try {
    const payload = JSON.parse(atob(state.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { p?: { callKey?: unknown } }
    return typeof payload.p?.callKey === 'string' && /^[0-9a-f-]{36}$/.test(payload.p.callKey) ? payload.p.callKey : undefined
  } catch {
    return undefined
  }
}

/** MCP 2026-07-28 (no sessions; `server/discover`; `input_required` questions) on SDK v2's per-request handler. */
export function createModernMcpHandler(serverInfo: { name: string; version: string }, questionTimeoutMs: number, launch?: (work: () => Promise<void>) => void) {
  const parked = new ParkedCalls<McpCallResult>(questionTimeoutMs, launch)
  // The SDK builds one server per request: the request's deps travel with the Request object it was handed.
  const depsOf = new WeakMap<Request, McpCallDeps & { body: unknown; close?: () => void }>()
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      const deps = requestInfo ? depsOf.get(requestInfo) : undefined
      if (!deps) throw new Error('toolroute: an MCP request reached the modern leg without its deps')
      const server = new Server(serverInfo, {
        capabilities: { tools: {}, ...mcpLoggingCapability },
        requestState: { verify: (state, ctx) => deps.requestState.verify(state, ctx) },
      })
      // Closing the server aborts its calls: how a call answered as a stream learns its client left.
      deps.close = () => void server.close().catch(() => {})
      server.setRequestHandler('tools/list', () => mcpToolIndex(deps.tools).list() as Promise<{ tools: Tool[] }>)
      serveModernTasks(server, deps, deps.body)
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const tool = await findMcpTool(deps.tools, request.params.name)
        if (ToolrouteError.isInstance(tool)) return errorResult(tool) as never
        if (!tool) throw new ProtocolError(-32602, `Unknown tool: ${request.params.name}`)
        const refusal = taskRequiredRefusal(tool, ctx)
        if (refusal) throw refusal
        return callMcpTool(deps, tool, request.params, ctx) as Promise<CallToolResult>
      })
      return server
    },
    // A call that sent notifications answers as the SDK's own stream, kept alive as often as ours.
    { legacy: 'reject', keepAliveMs: lateAnswerTiming.keepAliveMs },
  )
  return {
    async fetch(request: Request, deps: McpServerDeps & Pick<McpCallDeps, 'requestState' | 'defer' | 'callKey'>, parsedBody: unknown): Promise<Response> {
      const entry: McpCallDeps & { body: unknown; close?: () => void } = { ...deps, parked, body: parsedBody }
      depsOf.set(request, entry)
      const refused = await refuseMcpParamHeaders(request, deps.tools, parsedBody)
      if (refused) return refused
      const answering = handler.fetch(request, { parsedBody })
      const isCall = (parsedBody as { method?: unknown } | null)?.method === 'tools/call'
      if (!isCall || !request.headers.get('accept')?.includes('text/event-stream')) return answering
      return answerLateAsSse(answering, () => entry.close?.())
    },
  }
}
