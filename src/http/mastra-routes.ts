import type { Context, Hono } from 'hono'
import { ToolrouteError, toolNotFound } from '../errors/toolroute-error.ts'
import type { ToolAppEnv } from './tool-app-options.ts'
import { readJsonBody } from '../caller/read-json-body.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import { headerNames, jsonHeader } from '../protocol/header-names.ts'

/** superjson's text for a plain JSON value: the value under `json`, no `meta` needed. */
const superjson = (value: unknown) => JSON.stringify({ json: value })

/** A tool as Mastra's server lists it (`GET /api/tools`): its JSON Schemas as superjson text, which Mastra parses back. */
function toMastraTool({ id, description, inputSchema, outputSchema, requireApproval, strict, inputExamples, providerOptions, mcp }: ToolDescriptor) {
  // Mastra's flag is a boolean; a rule only the server evaluates may ask, so it reads as true.
  // A field the descriptor leaves out stays `undefined`, absent from the JSON answer.
  return { id, description, inputSchema: superjson(inputSchema), outputSchema: outputSchema && superjson(outputSchema), requireApproval: requireApproval !== false, strict, inputExamples, providerOptions, mcp }
}

/**
 * Mastra's tool routes, for `@mastra/client-js`. An execute goes through the app as `POST
 * /tools/:toolId` (auth, validation, runs all hold), `requestContext` (or the older `runtimeContext`)
 * as `x-request-context`; a completed call answers its output, as Mastra does, anything else as toolroute.
 */
export function mountMastraRoutes(
  app: Hono<ToolAppEnv>,
  options: { descriptors: () => Promise<ReadonlyMap<string, ToolDescriptor>>; maxInputBytes: number },
): void {
  let listing: Record<string, ReturnType<typeof toMastraTool>> | undefined
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
    if (context) headers.set(headerNames.requestContext, jsonHeader(context))
    const url = new URL(c.req.url)
    url.pathname = url.pathname.replace(/\/api\/tools\/([^/]+)\/execute\/?$/, '/tools/$1')
    url.search = ''
    const call = new Request(url, { method: 'POST', headers, body: JSON.stringify(data), signal: c.req.raw.signal })
    let executionCtx: Context['executionCtx'] | undefined
    try {
      executionCtx = c.executionCtx
    } catch {} // Hono's getter throws where there is none (Node, Deno, tests).
    const response = await app.fetch(call, c.env, executionCtx)
    if (response.status !== 200) return response
    const result = (await response.json()) as { status?: string; output?: unknown }
    const ids: Record<string, string> = {}
    for (const name of ['x-run-id', 'x-tool-call-id']) if (response.headers.has(name)) ids[name] = response.headers.get(name)!
    return c.json((result.status === 'completed' ? (result.output ?? null) : result) as never, 200, ids)
  })
}
