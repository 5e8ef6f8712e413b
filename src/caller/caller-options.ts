import type { Context, Env, ExecutionContext } from 'hono'

/** What a per-request choice (which run host) is made from: the request's `Context`, or the env alone in a Durable Object. */
export interface EnvContext<E extends Env = any> {
  env: E['Bindings']
  readonly executionCtx?: ExecutionContext
}

/**
 * What `resolveRequestContext` may return to also say who the request acts for: exactly these two keys.
 *
 * @example
 * resolveRequestContext: async (c) => {
 *   const user = await userOfSession(getCookie(c, 'session'))
 *   return user ? { requestContext: { userId: user.id }, principal: `user:${user.id}` } : undefined
 * }
 */
export interface ResolvedRequestContext {
  /** The request context; `undefined` falls back to the `x-request-context` header. */
  requestContext: Record<string, unknown> | undefined
  /** Who owns the runs and `Idempotency-Key`s of this request (SPEC §12); `null` for nobody. */
  principal: string | null
}

/** How an app tells who is calling: the options both the HTTP routes and `/mcp` read. */
export interface CallerOptions<E extends Env = any> {
  /**
   * Derives the request context from verified auth (a JWT's claims, a session…), over `x-request-context`
   * (`undefined` falls back to it). One reading a session cookie should return `{ requestContext, principal }`.
   */
  resolveRequestContext?: (
    c: Context<E>,
  ) => Record<string, unknown> | ResolvedRequestContext | undefined | Promise<Record<string, unknown> | ResolvedRequestContext | undefined>
  /** Who owns a request's runs, `Idempotency-Key`s and stateless MCP ids (over any other source); `null`: nobody. */
  principal?: (c: Context<E>, requestContext: Record<string, unknown>) => string | null | Promise<string | null>
}
