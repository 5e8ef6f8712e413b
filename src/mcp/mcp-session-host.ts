import type { McpServerDeps } from './mcp-server-deps.ts'
import type { McpCaller } from './mcp-caller.ts'

/** One request of a session, as the /mcp handler read it. */
export interface McpSessionRequest {
  /** The request, carrying the caller header. Its body has been read: use `text` / `body`. */
  request: Request
  /** The raw JSON body of a POST. */
  text?: string
  /** The parsed body of a POST. */
  body?: unknown
  /** Whether this POST opens the session (`initialize`). */
  initialize: boolean
  caller: McpCaller
  /** How to build the session's server in this process (a Durable Object builds its own). */
  deps: () => McpServerDeps
}

/**
 * Where MCP sessions live. A session's later requests (a call, the client's answer to a
 * question) must reach the one server holding it: a process's memory (Node, Deno), or on
 * Workers the Durable Object named by the session id.
 */
export interface McpSessionHost {
  handle(sessionId: string, request: McpSessionRequest): Promise<Response>
  /**
   * Runs a 2026-07-28 `tools/call` where the retries of its questions will land (on Workers, the
   * Durable Object named by `callKey`): a call that asks mid-`execute` waits there for the answer.
   * Without it, calls run in the request's own process.
   */
  call?(callKey: string, request: McpSessionRequest): Promise<Response>
  /**
   * Serves a stateless 2025 `tools/call`, or the `notifications/cancelled` naming it, where both
   * meet (on Workers, the Durable Object named by `key`: the principal and the request id), so the
   * cancel reaches the call. Without it, both are served in the request's own process.
   */
  stateless?(key: string, request: McpSessionRequest): Promise<Response>
}
