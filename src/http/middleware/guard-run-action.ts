import type { Context, MiddlewareHandler } from 'hono'
import { isLoopbackHost } from '../../caller/is-loopback-host.ts'
import { isJsonMediaType } from '../../caller/is-json-media-type.ts'
import { ToolrouteError } from '../../errors/toolroute-error.ts'
import { errorResponse } from '../error-response.ts'
import type { ToolAppOptions } from '../tool-app-options.ts'

/** What a run action's origin check reads of the app's options. */
export type RunActionOriginOptions = Pick<ToolAppOptions, 'cors' | 'servedLocally'>

/**
 * Whether a browser page of `origin` may act on runs: the app's own origin; on a locally served
 * app, a page of this machine (another port); an origin the `cors` option names. `cors`'s `*`
 * (its default origin) carries no credentials, so it vouches only for a request the browser had
 * to preflight, one with a JSON body: a body-less POST from any site is a "simple" request that
 * reaches the server with the user's cookies and no preflight at all.
 */
async function originAllowed(c: Context, origin: string, json: boolean, options: RunActionOriginOptions): Promise<boolean> {
  if (origin === new URL(c.req.url).origin) return true
  if (options.servedLocally) {
    // `null` (a sandboxed page, a file) or malformed: no host of this machine.
    if (URL.canParse(origin) && isLoopbackHost(new URL(origin).hostname)) return true
  }
  if (!options.cors) return false
  const allowed = options.cors === true ? '*' : (options.cors.origin ?? '*')
  const answer = typeof allowed === 'function' ? await allowed(origin, c) : allowed
  if (answer === '*') return json
  return Array.isArray(answer) ? answer.includes(origin) : answer === origin
}

/**
 * The cross-site rule of run actions (SPEC §12: approve, decline, resume, cancel): a request whose
 * `Origin` is present and not allowed gets `403 FORBIDDEN`, and one whose `Content-Type` is not
 * JSON gets `415`, before anything is read or resolved, so no field-less form or `fetch` of
 * another site can drive a run whose id it knows. A request without `Origin` (curl, agents,
 * servers) passes, body-less or not; a body without a content type is refused as it is read.
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
