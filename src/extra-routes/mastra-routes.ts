import type { Context, Hono } from 'hono'
import { ToolrouteError, toolNotFound } from '../errors/toolroute-error.ts'
import type { ToolAppEnv } from '../http/tool-app-options.ts'
import { readJsonBody } from '../caller/read-json-body.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import { headerNames, jsonHeader } from '../protocol/header-names.ts'
import { idHeaders, type JsonAnswer } from '../http/json-answer-of.ts'
import type { MastraCall } from '../http/tool-app-features.ts'
import type { CallResult } from '../protocol/call-result.ts'

/** superjson's text for a plain JSON value: the value under `json`, no `meta` needed. */
const superjson = (value: unknown) => JSON.stringify({ json: value })

/** A tool as Mastra's server lists it (`GET /api/tools`): its JSON Schemas as superjson text, which Mastra parses back. */
function toMastraTool({ id, description, inputSchema, outputSchema, requireApproval, strict, inputExamples, providerOptions, mcp }: ToolDescriptor) {
  // Mastra's flag is a boolean; a rule only the server evaluates may ask, so it reads as true.
  // A field the descriptor leaves out stays `undefined`, absent from the JSON answer.
  return { id, description, inputSchema: superjson(inputSchema), outputSchema: outputSchema && superjson(outputSchema), requireApproval: requireApproval !== false, strict, inputExamples, providerOptions, mcp }
}

/** A completed call answers its output, as Mastra's server does; anything else toolroute's JSON. */
const mastraAnswer: JsonAnswer = (c, body, status, ids) =>
  c.json(((body as CallResult).status === 'completed' ? ((body as { output?: unknown }).output ?? null) : body) as never, status, idHeaders(ids))

/**
 * Mastra's tool routes, for `@mastra/client-js`. An execute is the app's own call (auth,
 * validation, runs all hold), with no second request, `requestContext` (or the older `runtimeContext`)
 * as `x-request-context`; a completed call answers its output, as Mastra does, anything else as toolroute.
 */
export function mountMastraRoutes(
  app: Hono<ToolAppEnv>,
  // `call`: the app's own call (`createToolApp`), with the body's `data` as its input: one request, one call.
  options: { descriptors: () => Promise<ReadonlyMap<string, ToolDescriptor>>; maxInputBytes: number; call: (c: Context<ToolAppEnv>, toolId: string, mastra: MastraCall) => Promise<Response> },
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
    // The body's context stands where a call's `x-request-context` would (an app's resolver still wins over it).
    const headers = context ? new Headers(c.req.raw.headers) : undefined
    headers?.set(headerNames.requestContext, jsonHeader(context))
    return options.call(c, c.req.param('toolId') ?? '', { data, headers, answer: mastraAnswer })
  })
}
