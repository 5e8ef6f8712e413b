import type { Context, Env, ExecutionContext } from 'hono'

/**
 * What a choice made per request (which run host) is made from: the request's Hono `Context`, or,
 * inside a Durable Object that has no request (an MCP session object), the env alone.
 */
export interface EnvContext<E extends Env = any> {
  env: E['Bindings']
  readonly executionCtx?: ExecutionContext
}

/**
 * How an app tells who is calling: the part of `createToolApp`'s options that both the HTTP routes
 * and `/mcp` read, so each surface resolves a caller the same way without importing the other.
 */
export interface CallerOptions<E extends Env = any> {
  /**
   * Derives the request context from verified auth (a JWT's claims, a session…). When set, it
   * wins over the `x-request-context` header; return `undefined` to fall back to the header.
   */
  resolveRequestContext?: (c: Context<E>) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>
  /**
   * Who owns the runs a request creates. Default: a hash of the `authorization` header, so a
   * run answers only the credential that created it; `null` when there is none.
   */
  principal?: (c: Context<E>, requestContext: Record<string, unknown>) => string | null | Promise<string | null>
}
