import type { Context, Hono } from 'hono'
import { ToolrouteError, toolNotFound } from '../errors/toolroute-error.ts'
import type { ToolAppEnv } from './tool-app-options.ts'
import { readJsonBody } from './read-json-body.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'

/**
 * A tool as Mastra's server lists it (`GET /api/tools`): its JSON Schemas as superjson text
 * (`{"json": schema}`), which Mastra's client and playground parse back.
 */
export interface MastraSerializedTool {
  id: string
  description: string
  inputSchema?: string
  outputSchema?: string
  requireApproval: boolean
  strict?: boolean
  inputExamples?: ToolDescriptor['inputExamples']
  providerOptions?: ToolDescriptor['providerOptions']
  mcp?: ToolDescriptor['mcp']
}

export interface MastraRoutesOptions {
  /** The app's descriptors by id, read on first use (a build's manifest, or the tools' own). */
  descriptors: () => Promise<ReadonlyMap<string, ToolDescriptor>>
  maxInputBytes: number
}

/** superjson's text for a plain JSON value: the value under `json`, no `meta` needed. */
const superjson = (value: unknown) => JSON.stringify({ json: value })

function toMastraTool(descriptor: ToolDescriptor): MastraSerializedTool {
  return {
    id: descriptor.id,
    description: descriptor.description,
    inputSchema: superjson(descriptor.inputSchema),
    ...(descriptor.outputSchema ? { outputSchema: superjson(descriptor.outputSchema) } : {}),
    // Mastra's flag is a boolean; a rule only the server evaluates may ask, so it reads as true.
    requireApproval: descriptor.requireApproval !== false,
    ...(descriptor.strict !== undefined ? { strict: descriptor.strict } : {}),
    ...(descriptor.inputExamples ? { inputExamples: descriptor.inputExamples } : {}),
    ...(descriptor.providerOptions ? { providerOptions: descriptor.providerOptions } : {}),
    ...(descriptor.mcp ? { mcp: descriptor.mcp } : {}),
  }
}

/**
 * Header text of a JSON value: non-ASCII escaped (`\uXXXX` is still JSON), as header values
 * must be bytes.
 */
function jsonHeader(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * Mastra's tool routes, so Mastra's own client (`@mastra/client-js`: `listTools()`,
 * `getTool(id).details()`, `getTool(id).execute({ data, requestContext })`) calls toolroute tools:
 * `GET /api/tools`, `GET /api/tools/:toolId`, `POST /api/tools/:toolId/execute`.
 *
 * An execute is the same call as `POST /tools/:toolId`, dispatched through the app itself, so
 * auth, the request-context resolver, validation (same codes), approval, suspension, background
 * runs and run ownership all hold. `{ data, requestContext }` (or Mastra's older `runtimeContext`)
 * become the input and `x-request-context`. A completed call answers with the output itself,
 * as Mastra does; a run that waits or runs in the background answers toolroute's own 202 JSON,
 * and errors keep toolroute's `{ error: { code, message, issues? } }`.
 */
export function mountMastraRoutes(app: Hono<ToolAppEnv>, options: MastraRoutesOptions): void {
  let listing: Record<string, MastraSerializedTool> | undefined
  const listingOf = async () => (listing ??= Object.fromEntries([...(await options.descriptors()).values()].map((descriptor) => [descriptor.id, toMastraTool(descriptor)])))
  const descriptorOf = async (c: Context): Promise<ToolDescriptor> => {
    const descriptor = (await options.descriptors()).get(c.req.param('toolId') ?? '')
    if (!descriptor) throw toolNotFound(c.req.param('toolId'))
    return descriptor
  }

  app.get('/api/tools', async (c) => c.json(await listingOf()))
  app.get('/api/tools/:toolId', async (c) => c.json((await listingOf())[(await descriptorOf(c)).id]))
  app.post('/api/tools/:toolId/execute', async (c) => {
    await descriptorOf(c)
    const body = await readJsonBody(c, options.maxInputBytes)
    if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as { data?: unknown }).data === undefined) {
      throw new ToolrouteError('INPUT_VALIDATION_FAILED', 'Invalid request body: data is required', { issues: [{ path: ['data'], message: 'data is required' }] })
    }
    const { data, requestContext, runtimeContext } = body as { data: unknown; requestContext?: unknown; runtimeContext?: unknown }
    const context = requestContext ?? runtimeContext
    if (context !== undefined && context !== null && (typeof context !== 'object' || Array.isArray(context))) {
      throw new ToolrouteError('REQUEST_CONTEXT_VALIDATION_FAILED', 'requestContext must be a JSON object')
    }

    const headers = new Headers(c.req.raw.headers)
    headers.delete('content-length')
    headers.set('content-type', 'application/json')
    headers.set('accept', 'application/json')
    if (context) headers.set('x-request-context', jsonHeader(context))
    const url = new URL(c.req.url)
    url.pathname = url.pathname.replace(/\/api\/tools\/([^/]+)\/execute\/?$/, '/tools/$1')
    url.search = ''
    const call = new Request(url, { method: 'POST', headers, body: JSON.stringify(data), signal: c.req.raw.signal })
    let executionCtx: Context['executionCtx'] | undefined
    try {
      executionCtx = c.executionCtx
    } catch {
      // No execution context (Node, Deno, tests).
    }
    const response = await app.fetch(call, c.env, executionCtx)
    if (response.status !== 200) return response
    const result = (await response.json()) as { status?: string; output?: unknown }
    const ids: Record<string, string> = {}
    for (const name of ['x-run-id', 'x-tool-call-id']) if (response.headers.has(name)) ids[name] = response.headers.get(name)!
    if (result.status !== 'completed') return c.json(result as never, 200, ids)
    return c.json((result.output ?? null) as never, 200, ids)
  })
}
