import { createMcpSession, type McpSession } from './create-mcp-session.ts'
import { sessionNotFound } from './json-rpc-error.ts'
import type { McpSessionHost } from './mcp-session-host.ts'
import { sessionPrincipalPrefix } from '../caller/principal-of.ts'

/** A session unused this long is closed. */
const idleTtlMs = 60 * 60 * 1000

export interface MemoryMcpSessionsOptions {
  /** The most sessions kept in all (default 1000). */
  maxSessions?: number
  /** The most sessions one principal keeps (default 100): its next `initialize` closes its own least recently used. */
  maxSessionsPerPrincipal?: number
}

type Entry = { session: McpSession; principal: string | null; lastSeen: number }

/** Sessions in this process's memory, for Node and Deno (on Workers `createWorker` pins them to Durable Objects). */
export function createMemoryMcpSessions(options: MemoryMcpSessionsOptions = {}): McpSessionHost {
  const maxSessions = options.maxSessions ?? 1000
  const maxPerPrincipal = options.maxSessionsPerPrincipal ?? 100
  // Each principal's sessions, least recently used first (a use moves one to the end).
  const byPrincipal = new Map<string | null, Map<string, Entry>>()
  const sessions = new Map<string, Entry>()
  // Sessions no credential names (each its own principal) share nobody's allowance, or a flood would each count as one.
  const allowanceOf = (principal: string | null) => (principal?.startsWith(sessionPrincipalPrefix) ? null : principal)

  const drop = (sessionId: string) => {
    const entry = sessions.get(sessionId)
    if (!entry) return
    sessions.delete(sessionId)
    const own = byPrincipal.get(allowanceOf(entry.principal))!
    own.delete(sessionId)
    if (own.size === 0) byPrincipal.delete(allowanceOf(entry.principal))
    void entry.session.close().catch(() => {})
  }
  const oldestOf = (principal: string | null) => byPrincipal.get(principal)?.keys().next().value
  // Room for one more: first `principal`'s own over its allowance, then the idlest of whoever holds the most.
  const makeRoom = (principal: string | null) => {
    for (const [sessionId, entry] of sessions) if (Date.now() - entry.lastSeen > idleTtlMs) drop(sessionId)
    while ((byPrincipal.get(principal)?.size ?? 0) >= maxPerPrincipal) drop(oldestOf(principal)!)
    while (sessions.size >= maxSessions) {
      let heaviest: string | null = principal
      for (const [holder, own] of byPrincipal) if (own.size > (byPrincipal.get(heaviest)?.size ?? 0)) heaviest = holder
      drop(oldestOf(heaviest)!)
    }
  }
  const keep = (sessionId: string, entry: Entry) => {
    sessions.set(sessionId, entry)
    const own = byPrincipal.get(allowanceOf(entry.principal)) ?? new Map<string, Entry>()
    own.delete(sessionId)
    byPrincipal.set(allowanceOf(entry.principal), own.set(sessionId, entry))
  }

  return {
    async handle(sessionId, { request, body, initialize, caller, deps }) {
      if (initialize) {
        if (sessions.has(sessionId)) return sessionNotFound()
        const session = await createMcpSession(sessionId, deps(), body)
        const response = await session.handle(request, body)
        // Nothing awaited between making room and keeping: concurrent initializes cannot share one free slot.
        if (response.ok) {
          makeRoom(allowanceOf(caller.principal))
          keep(sessionId, { session, principal: caller.principal, lastSeen: Date.now() })
        } else void session.close().catch(() => {})
        return response
      }
      const entry = sessions.get(sessionId)
      // Another principal holding the id gets what an unknown id gets: no session, no leak.
      if (!entry || entry.principal !== caller.principal || Date.now() - entry.lastSeen > idleTtlMs) {
        if (entry && entry.principal === caller.principal) drop(sessionId)
        return sessionNotFound()
      }
      keep(sessionId, { ...entry, lastSeen: Date.now() })
      const response = await entry.session.handle(request, body)
      if (request.method === 'DELETE' && response.ok) drop(sessionId)
      return response
    },
  }
}
