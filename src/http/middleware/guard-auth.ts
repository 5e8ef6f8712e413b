import type { MiddlewareHandler } from 'hono'
import { isHttpException } from '../is-http-exception.ts'
import { ToolrouteError } from '../../errors/toolroute-error.ts'
import { errorResponse } from '../error-response.ts'

/** Statuses with which auth middleware refuses a request (hono/bearer-auth answers 400 to a malformed header). */
const refusals = new Set([400, 401, 403])

/** Runs Hono auth middleware so a refusal, thrown or answered, is the spec's `401 UNAUTHORIZED` (challenge kept). */
export function guardAuth(middleware: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => {
    let passed = false
    const unauthorized = (refused: Response | undefined, message: string) => {
      const response = errorResponse(c, new ToolrouteError('UNAUTHORIZED', message || 'Unauthorized'))
      const challenge = refused?.headers.get('www-authenticate')
      if (challenge) response.headers.set('www-authenticate', challenge)
      return response
    }
    try {
      const response = await middleware(c, async () => {
        passed = true
        await next()
      })
      if (!passed && response instanceof Response && refusals.has(response.status)) return unauthorized(response, '')
      return response
    } catch (error) {
      if (!passed && isHttpException(error) && refusals.has(error.status)) return unauthorized(error.getResponse(), error.message)
      throw error
    }
  }
}
