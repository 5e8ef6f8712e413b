import type { Context, Env } from 'hono'
import type { CallerOptions } from '../caller/caller-options.ts'
import type { McpSessionHost } from './mcp-session-host.ts'

/** How `/mcp` keeps sessions and waits for the user. */
export interface ToolAppMcpOptions<E extends Env = any> {
  /**
   * Where sessions live, for clients that declare elicitation (tools may ask them questions):
   * `'memory'` (this process; the default), `false` (every client served statelessly), or a host
   * per request. The platform's adapter passes its choice: `createWorker` uses the `TOOLROUTE_MCP`
   * Durable Objects, one per session, and `false` without that binding. Workers spread requests
   * over isolates, so an app served on Workers without `createWorker` should say `false`.
   */
  sessions?: 'memory' | false | ((c: Context<E>) => McpSessionHost | undefined)
  /** How long a question to the user (elicitation) waits for an answer (default 5 minutes). */
  elicitationTimeoutMs?: number
  /**
   * Origins allowed to send requests to `/mcp` (the transport spec's DNS-rebinding rule): a request
   * whose `Origin` is present and not listed is refused with 403 before any tool runs. Default: the
   * app's own origin, plus any localhost origin when the app is served locally (`servedLocally`).
   */
  allowedOrigins?: readonly string[]
  /**
   * The HMAC key (≥ 32 bytes) that seals a 2026-07-28 question's `requestState`. Every isolate that
   * may receive the client's retry needs the same one; default: `TOOLROUTE_MCP_STATE_KEY` from the
   * Worker's env, else a random key per isolate (enough for one process).
   */
  requestStateKey?: string
}

/**
 * What `/mcp` reads of the app's options: `createToolApp`'s `ToolAppOptions` is one, so the
 * composition root hands its options on as they are, and MCP imports nothing of the HTTP layer.
 */
export interface McpAppOptions<E extends Env = any> extends CallerOptions<E> {
  mcp?: boolean | ToolAppMcpOptions<E>
  maxInputBytes?: number
  storeRuns?: 'stateful' | 'all'
  server?: { name: string; version: string }
  basePath?: string
  /** Whether the app is served on a loopback address (`ToolAppOptions.servedLocally`). */
  servedLocally?: boolean
}
