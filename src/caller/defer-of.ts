import type { EnvContext } from './caller-options.ts'

/**
 * Keeps work alive past the response: `executionCtx.waitUntil` on Workers, where a request's
 * pending promises are dropped once its response is done or its caller left. Elsewhere (Node,
 * Deno, tests) there is no execution context and the promise runs on by itself.
 */
export function deferOf(c: EnvContext): (work: Promise<unknown>) => void {
  return (work) => {
    try {
      // Hono's getter throws without one; an env-only context has none.
      c.executionCtx!.waitUntil(work)
    } catch {
      // No execution context: nothing to extend.
    }
  }
}
