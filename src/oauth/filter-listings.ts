import type { MiddlewareHandler } from 'hono'
import type { VerifiedToken } from '../caller/verified-token.ts'

/**
 * `GET /tools`, `/openapi.json` and Mastra's `/api/tools` as the token sees them (SPEC §15): only the tools it may call. The
 * listings are made once per app; this reads the answer and leaves out the rest, so an app without
 * `oauth` pays nothing.
 */
export function filterListings(basePath: string): MiddlewareHandler {
  const toolPath = new RegExp(`^${basePath.replace(/\/+$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/tools/([^/]+)$`)
  return async (c, next) => {
    await next()
    const token = c.get('verifiedToken') as VerifiedToken | undefined
    if (!token || c.res.status !== 200) return
    const may = (id: string) => token.missingScopes(id).length === 0
    let body = (await c.res.json()) as { tools?: { id: string }[]; paths?: Record<string, unknown> }
    // Mastra's listing is an object of tools by id.
    if (c.req.path.endsWith('/api/tools')) body = Object.fromEntries(Object.entries(body).filter(([id]) => may(id)))
    if (Array.isArray(body.tools)) body.tools = body.tools.filter(({ id }) => may(id))
    if (body.paths) {
      body.paths = Object.fromEntries(Object.entries(body.paths).filter(([path]) => {
        const id = toolPath.exec(path)?.[1]
        return id === undefined || may(decodeURIComponent(id))
      }))
    }
    c.res = new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  }
}
