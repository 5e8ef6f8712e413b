import type { Context, MiddlewareHandler } from 'hono'
import { isLoopbackHost } from '../../caller/is-loopback-host.ts'
import { isJsonMediaType } from '../../caller/is-json-media-type.ts'
import { ToolrouteError } from '../../errors/toolroute-error.ts'
import { errorResponse } from '../error-response.ts'
import type { ToolAppOptions } from '../tool-app-options.ts'

type RunActionOriginOptions = Pick<ToolAppOptions, 'cors' | 'servedLocally'>

/**
 * Whether a page of `origin` may act on runs: the app's own, this machine's when served locally, or
 * one `cors` names. `*` vouches only for a JSON body, preflighted; a body-less POST is not.
 */
async function originAllowed(c: Context, origin: string, json: boolean, options: RunActionOriginOptions): Promise<boolean> {
  if (origin === new URL(c.req.url).origin) return true
  // `null` (a sandboxed page, a file) or malformed: no host of this machine.
  if (options.servedLocally && URL.canParse(origin) && isLoopbackHost(new URL(origin).hostname)) return true
  if (!options.cors) return false
  const allowed = options.cors === true ? '*' : (options.cors.origin ?? '*')
  const answer = typeof allowed === 'function' ? await allowed(origin, c) : allowed
  if (answer === '*') return json
  return Array.isArray(answer) ? answer.includes(origin) : answer === origin
}

/**
 * The cross-site rule of run actions (SPEC §12): an `Origin` not allowed gets `403`, a non-JSON
 * `Content-Type` `415`, before anything is read. No `Origin` (curl, agents, servers) passes.
 */
export function guardRunAction(options: RunActionOriginOptions): MiddlewareHandler {
  return async (c, next) => {
    const type = c.req.header('content-type')
    const json = isJsonMediaType(type)
    const origin = c.req.header('origin')
    if (origin !== undefined && !(await originAllowed(c, origin, json, options))) {
      return errorResponse(c, new ToolrouteError('FORBIDDEN', `Origin ${JSON.stringify(origin.slice(0, 256))} may not act on runs (list it in the cors option to allow it)`))
    }
    if (type !== undefined && !json) return errorResponse(c, new ToolrouteError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json'))
    return next()
  }
}
