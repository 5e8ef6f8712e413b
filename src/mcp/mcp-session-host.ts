import type { McpServerDeps } from './mcp-server-deps.ts'
import type { McpCaller } from './mcp-caller.ts'

/** One request of a session, as the /mcp handler read it. */
export interface McpSessionRequest {
  /** The request, carrying the caller header. Its body has been read: use `text` / `body` (of a POST). */
  request: Request
  text?: string
  body?: unknown
  /** Whether this POST opens the session (`initialize`). */
  initialize: boolean
  caller: McpCaller
  /** How to build the session's server in this process (a Durable Object builds its own). */
  deps: () => McpServerDeps
}

/** Where MCP sessions live: a session's requests must reach the one server holding it (memory, or a Durable Object). */
export interface McpSessionHost {
  handle(sessionId: string, request: McpSessionRequest): Promise<Response>
  /** Runs a 2026-07-28 `tools/call` where its questions' retries land (on Workers, the object named by `callKey`). */
  call?(callKey: string, request: McpSessionRequest): Promise<Response>
  /** Serves a stateless 2025 `tools/call`, or the cancel naming it, where both meet (on Workers, the object of `key`). */
  stateless?(key: string, request: McpSessionRequest): Promise<Response>
}
