// A Worker that calls `POST /tools/weather-tool` on two apps inside its own isolate, `n` times per
// request: the example Worker of tools/ (as `npm run dev` serves it) and the bare Hono route of
// bench/http/bare-worker.ts. No socket and no HTTP parsing: what is left is the apps' own work
// (routing, middleware, validation, execute, the JSON answer) plus a Request and a Response each.
// With `?scenario=mcp`, a 2026-07-28 `tools/call` of the same tool at `/mcp` instead, on the example
// Worker and on a bare SDK v2 createMcpHandler server (bare-mcp-worker.ts).
import toolroute from '../../.toolroute/worker.ts'
import bare from '../http/bare-worker.ts'
import bareMcp from './bare-mcp-worker.ts'

export { ToolRunObject, McpSessionObject } from '../../.toolroute/worker.ts'

const body = JSON.stringify({ location: 'Lisbon' })
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) }
const mcpBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'weather-tool',
    arguments: { location: 'Lisbon' },
    _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
  },
})
const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'weather-tool',
  'content-length': String(mcpBody.length),
}
const apps = { toolroute, bare, 'bare-mcp': bareMcp } as Record<string, { fetch(request: Request, env: unknown, ctx: ExecutionContext): Response | Promise<Response> }>

export default {
  async fetch(request: Request, env: unknown, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url)
    const app = apps[url.searchParams.get('app') ?? '']
    const calls = Number(url.searchParams.get('calls') ?? 1)
    if (!app) return new Response('?app=toolroute|bare|bare-mcp', { status: 400 })
    const mcp = url.searchParams.get('scenario') === 'mcp'
    let bytes = 0
    for (let call = 0; call < calls; call++) {
      const request = mcp ? new Request('http://bench/mcp', { method: 'POST', headers: mcpHeaders, body: mcpBody }) : new Request('http://bench/tools/weather-tool', { method: 'POST', headers, body })
      const response = await app.fetch(request, env, ctx)
      if (response.status !== 200) return new Response(await response.text(), { status: 500 })
      bytes += (await response.text()).length
    }
    return Response.json({ bytes })
  },
}
