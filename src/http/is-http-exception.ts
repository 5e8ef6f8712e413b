import type { HTTPException } from 'hono/http-exception'

/**
 * Hono's `HTTPException`, known by its shape as Hono's own error handler knows it: an app's
 * middleware may throw one from another copy of Hono, which `instanceof` would not recognize.
 */
export function isHttpException(error: unknown): error is HTTPException {
  return error instanceof Error && typeof (error as Partial<HTTPException>).getResponse === 'function' && typeof (error as Partial<HTTPException>).status === 'number'
}
