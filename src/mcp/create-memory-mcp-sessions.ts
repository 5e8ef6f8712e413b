import { createMcpSession, type McpSession } from './create-mcp-session.ts'
import { sessionNotFound } from './json-rpc-error.ts'
import type { McpSessionHost } from './mcp-session-host.ts'

export interface MemoryMcpSessionsOptions {
  /** A session unused this long is closed (default 1 h). */
  idleTtlMs?: number
  /** The most sessions kept; the least recently used goes first (default 1000). */
  maxSessions?: number
  now?: () => number
}

interface Entry {
  session: McpSession
  principal: string | null
  lastSeen: number
}

/**
 * Sessions in this process's memory, for Node and Deno (one process serves every request of a
 * session). Not for Workers: a Worker's requests land on many isolates, and an isolate cannot
 * write to one request's stream from another; `createWorker` pins sessions to Durable Objects.
 */
export function createMemoryMcpSessions(options: MemoryMcpSessionsOptions = {}): McpSessionHost {
  const idleTtlMs = options.idleTtlMs ?? 60 * 60 * 1000
  const maxSessions = options.maxSessions ?? 1000
  const now = options.now ?? Date.now
  const sessions = new Map<string, Entry>()

  const drop = (sessionId: string) => {
    const entry = sessions.get(sessionId)
    sessions.delete(sessionId)
    void entry?.session.close().catch(() => {})
  }
  const sweep = () => {
    for (const [sessionId, entry] of sessions) if (now() - entry.lastSeen > idleTtlMs) drop(sessionId)
    while (sessions.size >= maxSessions) drop(sessions.keys().next().value!)
  }

  return {
    async handle(sessionId, { request, body, initialize, caller, deps }) {
      if (initialize) {
        if (sessions.has(sessionId)) return sessionNotFound()
        sweep()
        const session = await createMcpSession(sessionId, deps())
        const response = await session.handle(request, body)
        if (response.ok) sessions.set(sessionId, { session, principal: caller.principal, lastSeen: now() })
        else void session.close().catch(() => {})
        return response
      }
      const entry = sessions.get(sessionId)
      // Another principal holding the id gets what an unknown id gets: no session, no leak.
      if (!entry || entry.principal !== caller.principal || now() - entry.lastSeen > idleTtlMs) {
        if (entry && entry.principal === caller.principal) drop(sessionId)
        return sessionNotFound()
      }
      // Most recently used last, so the size cap evicts the idlest session.
      sessions.delete(sessionId)
      sessions.set(sessionId, { ...entry, lastSeen: now() })
      const response = await entry.session.handle(request, body)
      if (request.method === 'DELETE' && response.ok) drop(sessionId)
      return response
    },
  }
}
