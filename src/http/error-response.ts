import type { Context } from 'hono'
import { ToolrouteError, errorMessage } from '../errors/toolroute-error.ts'

/** The one place HTTP turns an error into the spec's `{ error: { code, message, issues? } }`, never a stack trace. */
export function errorResponse(c: Context, error: unknown): Response {
  const failure = ToolrouteError.isInstance(error) ? error : new ToolrouteError('EXECUTION_FAILED', errorMessage(error))
  return c.json(failure.toJSON(), failure.status)
}
