// A Worker that calls `POST /tools/weather-tool` on two apps inside its own isolate, `n` times per
// request: the example Worker of tools/ (as `npm run dev` serves it) and the bare Hono route of
// bench/http/bare-worker.ts. No socket and no HTTP parsing: what is left is the apps' own work
// (routing, middleware, validation, execute, the JSON answer) plus a Request and a Response each.
import toolroute from '../../.toolroute/worker.ts'
import bare from '../http/bare-worker.ts'

export { ToolRunObject, McpSessionObject } from '../../.toolroute/worker.ts'

const body = JSON.stringify({ location: 'Lisbon' })
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) }
const apps = { toolroute, bare } as Record<string, { fetch(request: Request, env: unknown, ctx: ExecutionContext): Response | Promise<Response> }>

export default {
  async fetch(request: Request, env: unknown, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url)
    const app = apps[url.searchParams.get('app') ?? '']
    const calls = Number(url.searchParams.get('calls') ?? 1)
    if (!app) return new Response('?app=toolroute|bare', { status: 400 })
    let bytes = 0
    for (let call = 0; call < calls; call++) {
      const response = await app.fetch(new Request('http://bench/tools/weather-tool', { method: 'POST', headers, body }), env, ctx)
      if (response.status !== 200) return new Response(await response.text(), { status: 500 })
      bytes += (await response.text()).length
    }
    return Response.json({ bytes })
  },
}
