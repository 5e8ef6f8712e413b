import type { Context, MiddlewareHandler } from 'hono'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { VerifiedToken } from '../caller/verified-token.ts'
import { mcpToolName } from '../protocol/mcp-tool-name.ts'

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown }; result?: { tools?: unknown } }

/** A body larger than this is not peeked at: `/mcp` refuses it anyway (its own limit, 1 MiB by default). */
const peekLimit = 4 * 1024 * 1024

/** The request's JSON-RPC messages, read from a copy (the MCP endpoint reads the body itself). */
async function messagesOf(request: Request): Promise<Message[]> {
  if (request.method !== 'POST' || Number(request.headers.get('content-length') ?? 0) > peekLimit) return []
  try {
    const body: unknown = JSON.parse(await request.clone().text())
    return [body].flat().filter((message): message is Message => typeof message === 'object' && message !== null)
  } catch {
    return [] // not JSON: the MCP endpoint answers its parse error
  }
}

/** `tools/list` answers with only the tools `token` may call, in a JSON body or an SSE stream. */
async function filterListing(response: Response, allowed: (name: string) => boolean): Promise<Response> {
  const type = response.headers.get('content-type') ?? ''
  if (!response.ok || !(type.includes('json') || type.includes('text/event-stream'))) return response
  const rewrite = (message: Message): Message =>
    Array.isArray(message?.result?.tools)
      ? { ...message, result: { ...message.result, tools: message.result.tools.filter((tool: { name?: unknown }) => allowed(String(tool?.name))) } }
      : message
  const text = await response.text()
  const body = type.includes('json')
    ? JSON.stringify(((parsed: Message | Message[]) => (Array.isArray(parsed) ? parsed.map(rewrite) : rewrite(parsed)))(JSON.parse(text)))
    : text.replace(/^data: (.*)$/gm, (line, data: string) => {
        try {
          return `data: ${JSON.stringify(rewrite(JSON.parse(data)))}`
        } catch {
          return line
        }
      })
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(body, { status: response.status, headers })
}

/**
 * Scopes on `/mcp` (SPEC §15): a `tools/call` of a tool the token may not call answers an `isError`
 * result naming the scopes it lacks (the tool never runs), and `tools/list` lists only what it may call.
 * `refuse` answers a batch holding such a call: `403 INSUFFICIENT_SCOPE`, at the HTTP level.
 */
export function mcpScopeGuard(toolIds: readonly string[], refuse: (c: Context, missing: readonly string[]) => Response): MiddlewareHandler {
  // Only a tool of `toolScopes` needs more than every tool does: an MCP name maps back to its id.
  const byName = new Map(toolIds.map((id) => [mcpToolName(id), id]))
  const idOf = (name: string) => byName.get(name) ?? name
  return async (c, next) => {
    const token = c.get('verifiedToken') as VerifiedToken | undefined
    const messages = token ? await messagesOf(c.req.raw) : []
    if (!token || messages.length === 0) return next()
    const missingOf = (message: Message) => (message.method === 'tools/call' && typeof message.params?.name === 'string' ? token.missingScopes(idOf(message.params.name)) : [])
    const refused = messages.find((message) => missingOf(message).length > 0)
    if (refused) {
      const missing = missingOf(refused)
      if (messages.length > 1) return refuse(c, missing)
      const error = new ToolrouteError('INSUFFICIENT_SCOPE', `This token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')} that tool ${String(refused.params?.name)} needs`)
      const result = { content: [{ type: 'text', text: `${error.code}: ${error.message}` }], isError: true, _meta: { 'toolroute/error': error.toJSON().error } }
      return c.json({ jsonrpc: '2.0', id: refused.id ?? null, result })
    }
    await next()
    if (messages.some((message) => message.method === 'tools/list')) c.res = await filterListing(c.res, (name) => token.missingScopes(idOf(name)).length === 0)
  }
}
