// The example Worker under a real `wrangler dev` (started by global-setup), over real HTTP from
// Node: plain calls, SSE read with eventsource-parser and with the AI SDK's own reader, and a
// chunked request body whose deltas come back while it is still being sent.
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, inject, it } from 'vitest'
import type { ToolEvent } from 'toolroute'
import { readSse, sseMessages, typesOf } from '../fixtures/read-sse.ts'
import { liveBody, pause, streamedPost } from './live-body.ts'

const baseUrl = inject('baseUrl')
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
const sse = { accept: 'text/event-stream' }

describe('plain HTTP', () => {
  it('lists the tools and describes one', async () => {
    const list = (await (await fetch(`${baseUrl}/tools`)).json()) as { tools: { id: string }[] }
    expect(list.tools.map((tool) => tool.id)).toEqual(expect.arrayContaining(['weather-tool', 'lookup-customer', 'book-flight']))
    const one = await fetch(`${baseUrl}/tools/weather-tool`)
    expect(one.status).toBe(200)
    expect(await one.json()).toMatchObject({ id: 'weather-tool', inputSchema: { type: 'object' } })
  })

  it('calls a tool and answers JSON with the run headers', async () => {
    const response = await post('/tools/weather-tool', { location: 'Lisbon' }, { 'x-tool-call-id': 'agent-call-1' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-tool-call-id')).toBe('agent-call-1')
    expect(response.headers.get('x-run-id')).toBeTruthy()
    expect(await response.json()).toMatchObject({ status: 'completed', toolCallId: 'agent-call-1', output: { location: 'Lisbon', temperatureCelsius: 21 } })
  })

  it('answers errors in the spec shape', async () => {
    const cases: [Response, number, string][] = [
      [await post('/tools/nope', {}), 404, 'TOOL_NOT_FOUND'],
      [await post('/tools/lookup-customer', { email: 'a@b.co' }), 400, 'REQUEST_CONTEXT_VALIDATION_FAILED'],
      [await post('/tools/weather-tool', '{', {}), 400, 'INVALID_JSON'],
      [await post('/tools/weather-tool', { location: 1 }), 400, 'INPUT_VALIDATION_FAILED'],
      [await post('/tools/weather-tool', 'location=x', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [await post('/tools/weather-tool', { location: 'x'.repeat(1024 * 1024) }), 413, 'PAYLOAD_TOO_LARGE'],
    ]
    for (const [response, status, code] of cases) {
      expect(response.status, code).toBe(status)
      expect(await response.json()).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) })
    }
  })

  it('serves the OpenAPI document', async () => {
    const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> }
    expect(document.openapi).toBe('3.1.0')
    expect(document.paths['/tools/weather-tool']).toBeDefined()
  })
})

describe('SSE over HTTP', () => {
  it('is the AI SDK UI message stream, read with eventsource-parser', async () => {
    const response = await post('/tools/lookup-customer?view=raw', { email: 'ada@example.com' }, { ...sse, 'x-request-context': JSON.stringify({ tenantId: 'acme' }) })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    const { messages, events, done } = await readSse(response)
    expect(done).toBe(true)
    expect(messages.slice(0, -1).every((message) => /^\d+$/.test(message.id ?? '') && message.event === undefined)).toBe(true)
    expect(typesOf(events)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'data-tool-model-output', 'finish'])
    expect(events[0]).toEqual({ type: 'start', messageMetadata: { runId: response.headers.get('x-run-id'), toolCallId: response.headers.get('x-tool-call-id'), traceId: response.headers.get('x-trace-id') } })
  })

  it("is read by the AI SDK's own parser and UI message reader", async () => {
    const response = await post('/tools/chart-tool?view=raw', { quarter: 'Q2' }, sse)
    const chunks: UIMessageChunk[] = []
    const parsed = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream({
        transform(result, controller) {
          // Every chunk must parse against the AI SDK's schema: a failure here is an incompatibility.
          if (!result.success) throw result.error
          chunks.push(result.value as UIMessageChunk)
          controller.enqueue(result.value as UIMessageChunk)
        },
      }),
    )
    let message: UIMessage | undefined
    for await (const state of readUIMessageStream<UIMessage>({ stream: parsed, terminateOnError: true })) message = state
    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'data-tool-model-output', 'finish'])
    expect(message!.metadata).toEqual({ runId: response.headers.get('x-run-id'), toolCallId: response.headers.get('x-tool-call-id'), traceId: response.headers.get('x-trace-id') })
    const toolPart = message!.parts.find((part) => part.type === 'tool-chart-tool') as { state: string; input: unknown; output: unknown; toolCallId: string }
    expect(toolPart).toMatchObject({ state: 'output-available', toolCallId: response.headers.get('x-tool-call-id'), input: { quarter: 'Q2' }, output: { quarter: 'Q2', total: 1400 } })
    const modelOutput = message!.parts.find((part) => part.type === 'data-tool-model-output') as { data: { modelOutput: { type: string } } }
    expect(modelOutput.data.modelOutput.type).toBe('content')
  })

  it("gives the AI SDK reader an input error and an output error as tool part states", async () => {
    const read = async (response: Response) => {
      let message: UIMessage | undefined
      const stream = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
        new TransformStream({ transform: (result, controller) => (result.success ? controller.enqueue(result.value as UIMessageChunk) : controller.error(result.error)) }),
      )
      for await (const state of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) message = state
      return message!.parts.find((part) => part.type.startsWith('tool-')) as { state: string; errorText?: string }
    }
    const body = liveBody()
    body.send('{"location": 5}')
    body.end()
    const invalid = await fetch(`${baseUrl}/tools/weather-tool`, streamedPost(body.stream, sse))
    expect(await read(invalid)).toMatchObject({ state: 'output-error', errorText: expect.stringContaining('location') })
    const suspended = await post('/tools/book-flight', { from: 'LIS', to: 'OSL' }, sse)
    expect(await read(suspended)).toMatchObject({ state: 'input-available' })
  })
})

describe('streamed input over HTTP: a chunked request body', () => {
  it('streams each tool-input-delta back while the body is still being sent', async () => {
    const body = liveBody()
    const chunks = ['{"query"', ':"dura', 'ble ru', 'ns","li', 'mit":2}']
    body.send(chunks[0]!)
    const response = await fetch(`${baseUrl}/tools/audited-search?view=raw`, streamedPost(body.stream, sse))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = sseMessages(response.body!).getReader()
    const seen: ToolEvent[] = []
    const next = async (type: ToolEvent['type']) => {
      while (true) {
        const { done, value } = await reader.read()
        if (done) throw new Error(`stream ended before ${type}; saw ${typesOf(seen).join(', ')}`)
        if (value.data === '[DONE]') continue
        const event = JSON.parse(value.data) as ToolEvent
        seen.push(event)
        if (event.type === type) return event
      }
    }
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) {
        await pause(40) // a model emitting argument tokens
        body.send(chunk)
      }
      // Read before the next chunk goes out: had the server waited for the whole body, this would hang.
      expect(await next('tool-input-delta')).toMatchObject({ inputTextDelta: chunk })
      expect(typesOf(seen)).not.toContain('tool-input-available')
    }
    body.end()
    expect(await next('tool-input-available')).toMatchObject({ input: { query: 'durable runs', limit: 2 } })
    expect(await next('tool-output-available')).toMatchObject({ output: { results: [{ title: 'Getting started: durable runs' }, { title: 'Durable runs: durable runs' }] } })
    await next('finish')
    expect((await reader.read()).value?.data).toBe('[DONE]')
    expect((await reader.read()).done).toBe(true)
  })

  it('answers JSON once a chunked body is complete when the caller wants JSON', async () => {
    const body = liveBody()
    const pending = fetch(`${baseUrl}/tools/weather-tool`, streamedPost(body.stream))
    for (const chunk of ['{"loca', 'tion":"Ber', 'lin"}']) {
      body.send(chunk)
      await pause(20)
    }
    body.end()
    const response = await pending
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'completed', output: { location: 'Berlin' } })
  })

  // A chunked body past the limit is refused over real HTTP in disconnect.test.ts, on a direct
  // socket: wrangler dev's proxy answers the request after this one 503 when the Worker refuses
  // an upload it never finished reading, which would break whichever test runs next.
})
