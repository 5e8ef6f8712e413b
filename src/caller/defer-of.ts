import type { EnvContext } from './caller-options.ts'

/** Keeps work alive past the response: `executionCtx.waitUntil` on Workers; elsewhere the promise runs on by itself. */
export function deferOf(c: EnvContext): (work: Promise<unknown>) => void {
  return (work) => {
    try {
      // Hono's getter throws without one; an env-only context has none.
      c.executionCtx!.waitUntil(work)
    } catch {}
  }
}
