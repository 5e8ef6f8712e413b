import type { SequencedEvent, ToolEventView } from '../protocol/tool-event.ts'
import type { CallResult, CancelResult, RunList, RunView } from '../protocol/call-result.ts'
import { eventStreamMediaType } from '../protocol/encode-sse.ts'
import { headerNames, jsonHeader } from '../protocol/header-names.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { followEvents } from './follow-events.ts'
import { inputBody } from './input-body.ts'
import { readToolEvents, streamDone } from './read-tool-events.ts'
import { ToolClientError, responseError } from './tool-client-error.ts'
import type { FollowOptions, StreamOptions, ToolClient, ToolClientOptions, ToolSetLike } from './tool-client-types.ts'

/** The origin requests to a service binding are addressed to; the binding ignores the host. */
const bindingOrigin = 'http://toolroute'

interface SendOptions {
  method: 'GET' | 'POST'
  accept: 'application/json' | typeof eventStreamMediaType
  /** A step's JSON text, or a tool input's body. */
  body?: BodyInit
  headers?: HeadersInit
  signal?: AbortSignal | undefined
}

/**
 * A typed client for toolroute tools, for agents on Workers, Deno, Node or in a browser: calls
 * (JSON or SSE, input whole or streamed), approvals, suspensions, runs and their events.
 *
 * @example
 * import type { tools } from './tools'   // types only: nothing of the server is bundled
 * const client = createToolClient<typeof tools>({ baseUrl: 'https://tools.example.com' })
 * const result = await client.call('weather-tool', { location: 'Lisbon' })
 * if (result.status === 'completed') result.output.temperatureCelsius
 *
 * // On Workers, a service binding instead of a URL:
 * const client = createToolClient<typeof tools>({ fetcher: env.TOOLS })
 */
export function createToolClient<T extends ToolSetLike = readonly AnyTool[]>(options: ToolClientOptions = {}): ToolClient<T> {
  if (options.baseUrl === undefined && !options.fetcher) throw new TypeError('createToolClient needs a baseUrl or a fetcher (a service binding)')
  const base = String(options.baseUrl ?? bindingOrigin).replace(/\/+$/, '')
  const { fetcher, fetch: ownFetch } = options
  // Called bare, never as `options.fetch(…)`: a browser's `window.fetch` refuses any other `this`.
  const send: (request: Request) => Promise<Response> = ownFetch ?? (fetcher ? (request) => fetcher.fetch(request) : (request) => fetch(request))

  async function request(path: string, init: SendOptions): Promise<Response> {
    const headers = new Headers(typeof options.headers === 'function' ? await options.headers() : options.headers)
    new Headers(init.headers).forEach((value, name) => headers.set(name, value))
    headers.set('accept', init.accept)
    const traceparent = typeof options.traceparent === 'function' ? options.traceparent() : options.traceparent
    if (traceparent && !headers.has(headerNames.traceparent)) headers.set(headerNames.traceparent, traceparent)
    const { body } = init
    if (body !== undefined) headers.set('content-type', 'application/json')
    const streamed = typeof ReadableStream !== 'undefined' && body instanceof ReadableStream
    const outgoing = new Request(`${base}${path}`, {
      method: init.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      // Required by Node and Chromium to send a stream as the body, ignored where it is not.
      ...(streamed ? { duplex: 'half' } : {}),
    } as RequestInit)
    let response: Response
    try {
      response = await send(outgoing)
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason ?? error
      throw new ToolClientError('CONNECTION_LOST', `Could not reach toolroute at ${base}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
    if (!response.ok) throw await responseError(response)
    if (init.accept === eventStreamMediaType && (!(response.headers.get('content-type') ?? '').includes(eventStreamMediaType) || !response.body)) {
      await response.body?.cancel()
      throw new ToolClientError('UNEXPECTED_RESPONSE', `Expected an event stream from ${path}, got ${response.headers.get('content-type') ?? 'no content type'}`, { status: response.status })
    }
    return response
  }

  async function json<R>(path: string, init: Omit<SendOptions, 'accept'>): Promise<R> {
    const response = await request(path, { ...init, accept: 'application/json' })
    try {
      return (await response.json()) as R
    } catch (error) {
      throw new ToolClientError('UNEXPECTED_RESPONSE', `The answer of ${path} is not JSON`, { status: response.status, cause: error })
    }
  }

  const toolPath = (toolId: string, view?: ToolEventView) => `/tools/${encodeURIComponent(toolId)}${view ? `?view=${view}` : ''}`
  const runPath = (runId: string, action = '') => `/runs/${encodeURIComponent(runId)}${action}`

  async function callInit(input: unknown, callOptions: StreamOptions = {}): Promise<Omit<SendOptions, 'accept'>> {
    const headers = new Headers(callOptions.headers)
    const requestContext = { ...options.requestContext, ...callOptions.requestContext }
    if (Object.keys(requestContext).length > 0) headers.set(headerNames.requestContext, jsonHeader(requestContext))
    if (callOptions.toolCallId) headers.set(headerNames.toolCallId, callOptions.toolCallId)
    const { body, streamed } = await inputBody(input)
    // The tool call id is the key by default, except for a streamed input (`ToolClientOptions.idempotency` says why).
    const key = callOptions.idempotencyKey ?? (options.idempotency === false || streamed ? undefined : callOptions.toolCallId)
    if (key && !headers.has(headerNames.idempotencyKey)) headers.set(headerNames.idempotencyKey, key)
    return { method: 'POST', body, headers, signal: callOptions.signal }
  }

  function follow(runId: string, followOptions: FollowOptions = {}): AsyncIterable<SequencedEvent> {
    const query = followOptions.view ? `?view=${followOptions.view}` : ''
    const open = (after: number) =>
      request(`${runPath(runId, '/events')}${query}`, {
        method: 'GET',
        accept: eventStreamMediaType,
        headers: { ...Object.fromEntries(new Headers(followOptions.headers)), [headerNames.lastEventId]: String(after) },
        signal: followOptions.signal,
      })
    return followEvents(open, followOptions)
  }

  const client: ToolClient<T> = {
    list: async (requestOptions = {}) => (await json<{ tools: ToolDescriptor[] }>('/tools', { method: 'GET', ...requestOptions })).tools,
    describe: (toolId, requestOptions = {}) => json<ToolDescriptor>(toolPath(toolId), { method: 'GET', ...requestOptions }),
    call: async (toolId, input, callOptions) => json<CallResult<any, any>>(toolPath(toolId), await callInit(input, callOptions)),
    async *stream(toolId, input, streamOptions = {}) {
      const response = await request(toolPath(toolId, streamOptions.view), { ...(await callInit(input, streamOptions)), accept: eventStreamMediaType })
      const runId = response.headers.get(headerNames.runId)
      let last = 0
      let broken: unknown = new Error('The event stream ended before the call did')
      try {
        for await (const item of readToolEvents(response.body!)) {
          if (item === streamDone) return
          last = item.seq
          yield item
        }
      } catch (error) {
        if (streamOptions.signal?.aborted || (ToolClientError.isInstance(error) && error.code === 'UNEXPECTED_RESPONSE')) throw error
        broken = error
      }
      // The connection broke before the stream ended. A stored run (background, waiting) still
      // has its events: pick up after the last one. A call that lived in the request is gone.
      const lost = (cause: unknown) => new ToolClientError('CONNECTION_LOST', 'The event stream of the call broke, and its run was not kept', { ...(runId ? { runId } : {}), cause })
      if (!runId) throw lost(broken)
      try {
        yield* follow(runId, { after: last, ...(streamOptions.view ? { view: streamOptions.view } : {}), ...(streamOptions.signal ? { signal: streamOptions.signal } : {}) })
      } catch (error) {
        if (ToolClientError.isInstance(error) && error.code === 'RUN_NOT_FOUND') throw lost(broken)
        throw error
      }
    },
    approve: (runId, { approvalId, ...requestOptions } = {}) =>
      json(runPath(runId, '/approve'), { method: 'POST', body: JSON.stringify(approvalId ? { approvalId } : {}), ...requestOptions }),
    decline: (runId, { reason, ...requestOptions } = {}) =>
      json(runPath(runId, '/decline'), { method: 'POST', body: JSON.stringify(reason !== undefined ? { reason } : {}), ...requestOptions }),
    resume: (runId, resumeData, requestOptions = {}) =>
      json(runPath(runId, '/resume'), { method: 'POST', body: JSON.stringify({ resumeData }), ...requestOptions }),
    // `{}` rather than no body, as every action here: from a page on another origin, a JSON body is
    // what lets a server whose CORS allows any origin take the action (SPEC §12).
    cancel: (runId, requestOptions = {}) => json<CancelResult>(runPath(runId, '/cancel'), { method: 'POST', body: '{}', ...requestOptions }),
    getRun: (runId, requestOptions = {}) => json<RunView>(runPath(runId), { method: 'GET', ...requestOptions }),
    listRuns: ({ status, toolId, limit, cursor, ...requestOptions } = {}) => {
      const query = new URLSearchParams()
      if (status !== undefined) query.set('status', typeof status === 'string' ? status : status.join(','))
      for (const [name, value] of [['toolId', toolId], ['limit', limit], ['cursor', cursor]] as const) if (value !== undefined) query.set(name, String(value))
      return json<RunList>(`/runs${query.size ? `?${query}` : ''}`, { method: 'GET', ...requestOptions })
    },
    follow,
  }
  return client
}
