import type { Context, Env } from 'hono'
import type { CallerOptions } from '../caller/caller-options.ts'
import type { McpSessionHost } from './mcp-session-host.ts'

/** How `/mcp` keeps sessions and waits for the user. */
export interface ToolAppMcpOptions<E extends Env = any> {
  /**
   * Where sessions of clients that declare elicitation live: `'memory'` (this process; the
   * default), `false` (all served statelessly), or a host per request (`createWorker`: the
   * `TOOLROUTE_MCP` Durable Objects). An app on Workers without `createWorker` should say `false`.
   */
  sessions?: 'memory' | false | ((c: Context<E>) => McpSessionHost | undefined)
  /** How long a question to the user (elicitation) waits for an answer (default 5 minutes). */
  elicitationTimeoutMs?: number
  /**
   * Origins allowed to send requests to `/mcp` (DNS-rebinding rule; any other `Origin` gets 403).
   * Default: the app's own, plus any localhost origin when the app is served locally.
   */
  allowedOrigins?: readonly string[]
  /**
   * The HMAC key (≥ 32 bytes) sealing a 2026-07-28 question's `requestState`, the same wherever a
   * retry may land. Default: the env's `TOOLROUTE_MCP_STATE_KEY`, else a random key per isolate.
   */
  requestStateKey?: string
}

/** What `/mcp` reads of the app's options (`ToolAppOptions` is one), so MCP imports nothing of the HTTP layer. */
export interface McpAppOptions<E extends Env = any> extends CallerOptions<E> {
  mcp?: boolean | ToolAppMcpOptions<E>
  maxInputBytes?: number
  storeRuns?: 'stateful' | 'all'
  server?: { name: string; version: string }
  basePath?: string
  /** Whether the app is served on a loopback address (`ToolAppOptions.servedLocally`). */
  servedLocally?: boolean
}
