import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { createMcpServer } from './create-mcp-server.ts'
import type { McpServerDeps } from './mcp-server-deps.ts'
import { legacyVersionOf } from './legacy-version.ts'
import { readCaller } from './mcp-caller.ts'
import { taskResultOf, wantsProgress } from './read-mcp-body.ts'
import { taskSendsProgress } from './task-progress.ts'
import { callIdOf, cancelledIdOf, statelessCallKey, type StatelessCalls } from './stateless-calls.ts'

/** One 2025 request served statelessly, a running `tools/call` kept in `calls` for its cancel. JSON, but SSE when progress comes first (a call asking for it, or a `tasks/result` of a task whose call did). */
export async function handleStatelessMcp(deps: McpServerDeps, request: Request, body: unknown, calls: StatelessCalls): Promise<Response> {
  const principal = readCaller(request.headers).principal
  const cancelled = cancelledIdOf(body)
  const cancelKey = cancelled === undefined ? undefined : await statelessCallKey(principal, cancelled)
  if (cancelKey !== undefined && (await calls.cancel(cancelKey, request, body, cancelled!))) return new Response(null, { status: 202 })
  const server = createMcpServer(deps, legacyVersionOf(request.headers, body))
  const task = taskResultOf(body)
  const streamed = wantsProgress(body) || (task !== undefined && (await taskSendsProgress(deps.runs(), task, principal)))
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !streamed })
  await server.connect(transport)
  const callId = callIdOf(body)
  const callKey = callId === undefined ? undefined : await statelessCallKey(principal, callId)
  let end!: () => void
  const ended = new Promise<Response>((resolve) => (end = () => resolve(new Response(null, { status: 202 }))))
  const untrack = callKey === undefined ? undefined : calls.track(callKey, transport, end)
  const close = () => {
    untrack?.()
    void server.close().catch(() => {})
  }
  let response: Response
  try {
    response = await Promise.race([transport.handleRequest(request, { parsedBody: body }), ended])
  } catch (error) {
    close()
    throw error
  }
  if (!streamed || !response.body) {
    close()
    return response
  }
  // The stream outlives `handleRequest`: the server closes once the stream has ended or its reader left.
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  void response.body.pipeTo(writable).then(close, close)
  return new Response(readable, { status: response.status, headers: response.headers })
}
