import { DurableObject } from 'cloudflare:workers'
import { z } from 'zod'
import { createMcpSession, type McpSession } from '../../mcp/create-mcp-session.ts'
import type { McpServerDeps } from '../../mcp/mcp-server-deps.ts'
import { safeParseJson } from '../../runtime/safe-parse-json.ts'
import { jsonRpcError, sessionNotFound } from '../../mcp/json-rpc-error.ts'
import { internalHeaderPrefix, readCaller } from '../../mcp/mcp-caller.ts'
import { isInitialize } from '../../mcp/read-mcp-body.ts'
import { createModernMcpHandler, questionStateCodecFor } from '../../mcp/create-modern-mcp-handler.ts'
import { handleStatelessMcp } from '../../mcp/handle-stateless-mcp.ts'
import { StatelessCalls } from '../../mcp/stateless-calls.ts'

/** What a session object serves (a session, a 2026-07-28 call, a stateless 2025 call), set on `withCaller`'s copy, free of any client's `x-toolroute-*`. */
export const mcpSessionIdHeader = `${internalHeaderPrefix}mcp-session`
export const mcpCallKeyHeader = `${internalHeaderPrefix}mcp-call`
export const mcpStatelessKeyHeader = `${internalHeaderPrefix}mcp-stateless`
// Only on the `initialize` opening a session under an id the Worker just made: no other opens one.
export const mcpOpenHeader = `${internalHeaderPrefix}mcp-open`

export interface McpSessionObjectOptions {
  /** Everything the session's MCP server needs, from the object's `env`. */
  deps: (env: unknown, ctx: DurableObjectState) => McpServerDeps
  /** A session unused this long is deleted (default 24 h). */
  sessionTtlMs?: number
}

/**
 * Storage layout, one object per session (`idFromName(sessionId)`): `session` is `{ initialize, principal,
 * createdAt }`, the client's `initialize` as it came (replayed to rebuild the server after an eviction)
 * and the principal that opened it, the only one it answers; the alarm is the idle expiry.
 */
const savedSessionSchema = z.object({ initialize: z.unknown(), principal: z.string().nullable(), createdAt: z.string() })
type SavedSession = z.infer<typeof savedSessionSchema>

const defaultSessionTtlMs = 24 * 60 * 60 * 1000
/** The alarm moves at most this often (else every request would cost a storage write). */
const alarmSlackMs = 60 * 60 * 1000

/** An MCP session's Durable Object: the Worker forwards the session's requests to its `fetch`. */
export interface McpSessionObject extends DurableObject {
  fetch(request: Request): Promise<Response>
  alarm(): Promise<void>
}

/**
 * The Durable Object that holds one MCP session (the Worker routes by `Mcp-Session-Id`): the SDK server
 * and its transport, in memory, so the client's answer to a question (a later POST) reaches the call that
 * asked it. After an eviction the session is rebuilt from its saved `initialize`; a question pending then
 * is lost (its call ends with the run still waiting for HTTP), so waits stay bounded.
 */
// The return type is spelled out: the .d.ts cannot carry an anonymous class extending DurableObject.
export function createMcpSessionObject(options: McpSessionObjectOptions): new (ctx: DurableObjectState, env: unknown) => McpSessionObject {
  const ttlMs = options.sessionTtlMs ?? defaultSessionTtlMs
  return class McpSessionObject extends DurableObject {
    #session: Promise<McpSession> | undefined
    readonly #deps: McpServerDeps = options.deps(this.env, this.ctx)
    #modern: ReturnType<typeof createModernMcpHandler> | undefined
    /** 2026-07-28 executions waiting for the alarm handler to run them (`#launch`). */
    #launched: (() => Promise<void>)[] = []
    #alarmAt = 0
    #lastSeen = 0
    #stateless = new StatelessCalls()

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never)
    }

    async fetch(request: Request): Promise<Response> {
      // The Worker forwards a body only with a POST (a 2026 call's and a stateless call's always are), one it
      // already read and checked, handed over as text: parsed again by the same depth-guarded parser.
      const text = request.method === 'POST' ? await request.text() : undefined
      const read = text === undefined ? undefined : safeParseJson(text)
      if (read && (!read.ok || read.value === undefined)) return jsonRpcError(400, -32700, 'Parse error: Invalid JSON')
      const body = read?.ok ? read.value : undefined
      const callKey = request.headers.get(mcpCallKeyHeader)
      if (callKey) return this.#call(callKey, request, body)
      // A stateless 2025 call, or its cancel: both land here, so the cancel reaches the call.
      if (request.headers.has(mcpStatelessKeyHeader)) {
        return handleStatelessMcp(this.#deps, new Request(request.url, { method: 'POST', headers: request.headers, body: text }), body, this.#stateless)
      }
      const sessionId = request.headers.get(mcpSessionIdHeader)
      if (!sessionId) return sessionNotFound()
      const caller = readCaller(request.headers)
      if (isInitialize(body)) return request.headers.has(mcpOpenHeader) ? this.#open(sessionId, request, body, caller.principal) : sessionNotFound()

      const saved = await this.#saved()
      if (!saved || saved.principal !== caller.principal) return sessionNotFound()
      const session = await (this.#session ??= this.#restore(sessionId, saved)).catch(() => undefined)
      if (!session) {
        this.#session = undefined
        return sessionNotFound()
      }
      const response = await session.handle(request, body)
      if (request.method === 'DELETE' && response.ok) await this.#forget()
      else await this.#touch()
      return response
    }

    /**
     * One 2026-07-28 `tools/call` (or the retry answering its question), run here so a question asked
     * mid-`execute` waits in memory for the retry, which the Worker routes here by the key sealed in its
     * `requestState`. Nothing is stored: an eviction loses the question (the retry is told to call again).
     */
    async #call(callKey: string, request: Request, body: unknown): Promise<Response> {
      this.#modern ??= createModernMcpHandler(this.#deps.serverInfo, this.#deps.elicitationTimeoutMs, (work) => this.#launch(work))
      const secret = (this.env as { TOOLROUTE_MCP_STATE_KEY?: unknown } | undefined)?.TOOLROUTE_MCP_STATE_KEY
      return this.#modern.fetch(
        request,
        { ...this.#deps, requestState: questionStateCodecFor(this.#deps.requestStateKey ?? secret), defer: (work) => this.ctx.waitUntil(work), callKey },
        body,
      )
    }

    /**
     * Runs a 2026-07-28 call's execution in the alarm handler: a request's context ends with its response,
     * so a tool waiting for the retry's answer would never wake up there; the alarm's lasts until the
     * execution ends (bounded by the question timeout).
     */
    #launch(work: () => Promise<void>): void {
      this.#launched.push(work)
      void this.ctx.storage.setAlarm(Date.now())
    }

    async alarm(): Promise<void> {
      if (this.#launched.length > 0 || this.ctx.id.name?.startsWith('call:')) {
        const works = this.#launched.splice(0)
        await Promise.all(works.map((work) => work().catch(() => {})))
        return
      }
      if (this.#lastSeen && Date.now() - this.#lastSeen < ttlMs) return this.#expireIdle()
      await this.#forget()
    }

    async #open(sessionId: string, request: Request, body: unknown, principal: string | null): Promise<Response> {
      if (this.#session || (await this.#saved())) return jsonRpcError(400, -32600, 'Invalid Request: Server already initialized')
      this.#session = createMcpSession(sessionId, this.#deps, body)
      const response = await (await this.#session).handle(request, body)
      if (!response.ok) {
        this.#session = undefined
        return response
      }
      await this.ctx.storage.put('session', { initialize: body, principal, createdAt: new Date().toISOString() } satisfies SavedSession)
      await this.#touch()
      return response
    }

    async #restore(sessionId: string, saved: SavedSession): Promise<McpSession> {
      const session = await createMcpSession(sessionId, this.#deps, saved.initialize)
      await session.restore(saved.initialize)
      return session
    }

    async #saved(): Promise<SavedSession | undefined> {
      const parsed = savedSessionSchema.safeParse(await this.ctx.storage.get('session'))
      return parsed.success ? parsed.data : undefined
    }

    async #touch(): Promise<void> {
      this.#lastSeen = Date.now()
      if (this.#alarmAt - this.#lastSeen <= ttlMs - alarmSlackMs) await this.#expireIdle()
    }

    async #expireIdle(): Promise<void> {
      this.#alarmAt = this.#lastSeen + ttlMs
      await this.ctx.storage.setAlarm(this.#alarmAt)
    }

    async #forget(): Promise<void> {
      const session = this.#session
      this.#session = undefined
      this.#alarmAt = 0
      await session?.then((open) => open.close()).catch(() => {})
      await this.ctx.storage.deleteAlarm()
      await this.ctx.storage.deleteAll()
    }
  }
}
