import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { mcpToolIndex } from '../manifest/to-mcp-tool.ts'
import { jsonRpcError } from './json-rpc-error.ts'

/** JSON-RPC `HeaderMismatch` (2026-07-28): the request's headers and its body disagree. */
const headerMismatch = -32020

/** One argument a tool's input schema mirrors in a header (`x-mcp-header`, SEP-2243). */
type ParamHeader = { path: string[]; header: string }

const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** The `x-mcp-header` declarations on properties reached through `properties` alone (the only place SEP-2243 allows them). */
function paramHeaders(schema: unknown, path: string[] = []): ParamHeader[] {
  if (!schema || typeof schema !== 'object') return []
  const node = schema as { properties?: Record<string, unknown>; 'x-mcp-header'?: unknown }
  const own = path.length > 0 && typeof node['x-mcp-header'] === 'string' && token.test(node['x-mcp-header']) ? [{ path, header: `mcp-param-${node['x-mcp-header']}` }] : []
  const children = node.properties && typeof node.properties === 'object' ? Object.entries(node.properties).flatMap(([key, child]) => paramHeaders(child, [...path, key])) : []
  return [...own, ...children]
}

const declared = new WeakMap<object, ParamHeader[]>()

/** A header value as the client encoded it: `=?base64?…?=` is UTF-8 in canonical Base64, anything else literal. */
function decode(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?='))) return value
  const encoded = value.slice(9, -2)
  if (!canonicalBase64.test(encoded)) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(atob(encoded), (char) => char.codePointAt(0)!))
  } catch {
    return undefined
  }
}

function mismatch(id: unknown, header: string, problem: string): Response {
  return jsonRpcError(400, headerMismatch, `Bad Request: the request headers and body disagree: ${problem}`, {}, id, { mismatch: { header, body: problem } })
}

/**
 * SEP-2243: an argument the input schema mirrors in a header (`x-mcp-header: Name`) must arrive in
 * `Mcp-Param-Name` with the same value, else `400`, `-32020`. (The SDK checks only `McpServer`'s tools.)
 */
export function checkMcpParamHeaders(request: Request, id: unknown, inputSchema: JSONSchemaObject, args: unknown): Response | undefined {
  let headers = declared.get(inputSchema)
  if (!headers) declared.set(inputSchema, (headers = paramHeaders(inputSchema)))
  for (const { path, header } of headers) {
    let value: unknown = args
    for (const key of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
    if (value === undefined || value === null || typeof value === 'object') continue
    const sent = request.headers.get(header)
    if (sent === null) return mismatch(id, header, `the body carries ${path.join('.')} but the ${header} header is absent`)
    const decoded = decode(sent)
    if (decoded === undefined) return mismatch(id, header, `the ${header} header carries an invalid Base64 value`)
    const same = typeof value === 'number' ? /^-?\d+(\.\d+)?$/.test(decoded) && Number(decoded) === value : decoded === String(value)
    if (!same) return mismatch(id, header, `the ${header} header does not match the body's ${path.join('.')}`)
  }
  return undefined
}

/** `checkMcpParamHeaders` of a 2026-07-28 body, once `Mcp-Method` and `Mcp-Name` agree with it (the SDK refuses those first). */
export async function refuseMcpParamHeaders(request: Request, tools: ReadonlyMap<string, AnyTool>, body: unknown): Promise<Response | undefined> {
  const message = body as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null
  if (message?.method !== 'tools/call' || typeof message.params?.name !== 'string') return undefined
  if (request.headers.get('mcp-method')?.trim() !== 'tools/call' || request.headers.get('mcp-name')?.trim() !== message.params.name) return undefined
  const name = message.params.name
  const listed = (await mcpToolIndex(tools).list()).tools.find((tool) => tool.name === name)
  return listed ? checkMcpParamHeaders(request, message.id, listed.inputSchema as JSONSchemaObject, message.params.arguments) : undefined
}
