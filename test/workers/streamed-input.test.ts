import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { ToolEvent } from 'toolroute'
import { sseMessages, typesOf } from '../fixtures/read-sse.ts'
import { chunkedBody, origin, readProbe } from './http-client.ts'

function post(toolId: string, body: ReadableStream<Uint8Array>, { sse = true, query = '', headers = {} as Record<string, string> } = {}) {
  return SELF.fetch(`${origin}/tools/${toolId}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(sse ? { accept: 'text/event-stream' } : {}), ...headers },
    body,
  })
}

/** Reads events until one matches, returning it (the stream stays open for more). */
async function until(reader: ReadableStreamDefaultReader<{ data: string }>, seen: ToolEvent[], match: (event: ToolEvent) => boolean): Promise<ToolEvent> {
  while (true) {
    const { done, value } = await reader.read()
    if (done) throw new Error(`stream ended before the awaited event; saw ${typesOf(seen).join(', ')}`)
    if (value.data === '[DONE]') continue
    const event = JSON.parse(value.data) as ToolEvent
    seen.push(event)
    if (match(event)) return event
  }
}

describe('streamed input: a chunked body', () => {
  it('gives a tool-input-delta event and an onInputDelta call per chunk as it arrives, then tool-input-available', async () => {
    const toolCallId = `live-${crypto.randomUUID()}`
    const body = chunkedBody()
    const chunks = ['{"te', 'xt":"hel', 'lo wor', 'ld"}']
    body.send(chunks[0]!)
    // The response starts before the body is complete: awaiting it here would hang otherwise.
    const response = await post('input-recorder', body.stream, { query: '?view=raw', headers: { 'x-tool-call-id': toolCallId } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = sseMessages(response.body!).getReader()
    const seen: ToolEvent[] = []
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) body.send(chunk)
      // Each delta is read before the next chunk is written: it went out live.
      const delta = await until(reader, seen, (event) => event.type === 'tool-input-delta')
      expect(delta).toEqual({ type: 'tool-input-delta', toolCallId, inputTextDelta: chunk })
      // ...and the hook already ran for it, while the body is still open.
      expect(await readProbe(toolCallId)).toEqual(['start', ...chunks.slice(0, index + 1).map((text) => `delta:${text}`)])
    }
    expect(typesOf(seen)).not.toContain('tool-input-available')
    body.end()
    const available = await until(reader, seen, (event) => event.type === 'tool-input-available')
    expect(available).toEqual({ type: 'tool-input-available', toolCallId, toolName: 'input-recorder', input: { text: 'hello world' } })
    const output = await until(reader, seen, (event) => event.type === 'tool-output-available')
    expect(output).toMatchObject({ output: { text: 'hello world', hooks: ['start', ...chunks.map((text) => `delta:${text}`), 'available'] } })
    await until(reader, seen, (event) => event.type === 'finish')
    expect(typesOf(seen)).toEqual([
      'start',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'data-tool-model-output',
      'finish',
    ])
    expect(await reader.read()).toEqual({ done: false, value: expect.objectContaining({ data: '[DONE]' }) })
  })

  it('decodes a multi-byte character split across chunks', async () => {
    const body = chunkedBody()
    const bytes = new TextEncoder().encode('{"text":"café ☕"}')
    const split = bytes.indexOf(0xe2) + 1 // inside the 3-byte ☕
    const responsePromise = post('input-recorder', body.stream, { sse: false })
    body.send(bytes.slice(0, split))
    body.send(bytes.slice(split))
    body.end()
    const response = await responsePromise
    expect(response.status).toBe(200)
    const { output } = (await response.json()) as { output: { text: string; hooks: string[] } }
    expect(output.text).toBe('café ☕')
    expect(output.hooks.join('')).not.toContain('\uFFFD')
  })

  it('answers JSON after the whole chunked body when the caller did not ask for SSE', async () => {
    const toolCallId = `json-${crypto.randomUUID()}`
    const body = chunkedBody()
    const responsePromise = post('input-recorder', body.stream, { sse: false, headers: { 'x-tool-call-id': toolCallId } })
    for (const chunk of ['{"text":', '"a', 'b"}']) body.send(chunk)
    body.end()
    const response = await responsePromise
    expect(response.status).toBe(200)
    const { status, output } = (await response.json()) as { status: string; output: { text: string; hooks: string[] } }
    expect({ status, text: output.text }).toEqual({ status: 'completed', text: 'ab' })
    // One delta per chunk as it was received: how many chunks arrive is up to the transport
    // (workerd may join chunks written back to back), but together they spell the body, in order.
    expect(output.hooks[0]).toBe('start')
    expect(output.hooks.at(-1)).toBe('available')
    expect(output.hooks.slice(1, -1).map((hook) => hook.replace(/^delta:/, '')).join('')).toBe('{"text":"ab"}')
  })

  it('ends a live stream with tool-input-error when the input is invalid (status 200 is already sent)', async () => {
    const body = chunkedBody()
    body.send('{"text":')
    const response = await post('input-recorder', body.stream)
    expect(response.status).toBe(200)
    body.send(' 42}')
    body.end()
    const reader = sseMessages(response.body!).getReader()
    const seen: ToolEvent[] = []
    const error = await until(reader, seen, (event) => event.type === 'tool-input-error')
    expect(error).toMatchObject({ toolName: 'input-recorder', input: { text: 42 }, errorText: expect.stringContaining('text') })
    expect(await until(reader, seen, (event) => event.type === 'finish')).toEqual({ type: 'finish', finishReason: 'error' })
    expect(typesOf(seen)).not.toContain('tool-input-available')
    expect(typesOf(seen)).not.toContain('tool-output-available')
  })

  it('ends a live stream with tool-input-error for invalid JSON', async () => {
    const body = chunkedBody()
    body.send('{"text": "unterminated')
    const response = await post('input-recorder', body.stream)
    body.end()
    const seen: ToolEvent[] = []
    const error = await until(sseMessages(response.body!).getReader(), seen, (event) => event.type === 'tool-input-error')
    expect(error).toMatchObject({ input: '{"text": "unterminated', errorText: expect.stringMatching(/not valid JSON/) })
  })

  it('ends a live stream with tool-input-error when the body grows past maxInputBytes', async () => {
    const body = chunkedBody()
    body.send('{"text":"')
    const response = await post('input-recorder', body.stream, { query: '?view=raw' })
    const chunk = 'x'.repeat(128 * 1024)
    for (let index = 0; index < 9; index++) body.send(chunk)
    body.end()
    const seen: ToolEvent[] = []
    const error = await until(sseMessages(response.body!).getReader(), seen, (event) => event.type === 'tool-input-error')
    expect(error).toMatchObject({ errorText: expect.stringContaining('larger than 1048576 bytes') })
  })
})
