import { describe, expect, it } from 'vitest'
import { createToolClient } from '../client/create-tool-client.ts'
import { toAiSdkTools } from './to-ai-sdk-tools.ts'

const descriptor = { id: 'progress-tool', description: 'Reports progress', inputSchema: { type: 'object' }, requireApproval: false }

/** A server that lists one tool and answers its call with the SSE frames given. */
function fakeServer(frames: string[]) {
  return createToolClient({
    fetcher: {
      async fetch(input, init) {
        const request = new Request(input, init)
        if (request.method === 'GET') return Response.json({ tools: [descriptor] })
        const body = frames.map((frame, index) => `id: ${index + 1}\ndata: ${frame}\n\n`).join('') + 'data: [DONE]\n\n'
        return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-run-id': 'run_1' } })
      },
    },
  })
}

async function outputsOf(iterable: unknown): Promise<unknown[]> {
  const all: unknown[] = []
  for await (const value of iterable as AsyncIterable<unknown>) all.push(value)
  return all
}

describe('toAiSdkTools execute', () => {
  it('yields what the tool writes and its preliminary outputs, then the final one, as the AI SDK expects of an async iterable', async () => {
    const tools = await toAiSdkTools(
      fakeServer([
        JSON.stringify({ type: 'start', messageMetadata: { runId: 'run_1', toolCallId: 'call_1' } }),
        JSON.stringify({ type: 'data-tool-output', data: { toolCallId: 'call_1', output: { stage: 'outline' } } }),
        JSON.stringify({ type: 'data-progress', id: 'progress', data: { percent: 10 } }),
        JSON.stringify({ type: 'tool-output-available', toolCallId: 'call_1', output: { done: 1 }, preliminary: true }),
        JSON.stringify({ type: 'tool-output-available', toolCallId: 'call_1', output: { done: 2 }, preliminary: true }),
        JSON.stringify({ type: 'tool-output-available', toolCallId: 'call_1', output: { done: 3 } }),
        JSON.stringify({ type: 'finish', finishReason: 'stop' }),
      ]),
    )
    const result = tools['progress-tool']!.execute!({}, { toolCallId: 'call_1', messages: [], context: {} })
    expect(await outputsOf(result)).toEqual([{ stage: 'outline' }, { done: 1 }, { done: 2 }, { done: 3 }])
  })

  it('throws the tool’s error text when the stream reports a failure', async () => {
    const tools = await toAiSdkTools(
      fakeServer([
        JSON.stringify({ type: 'start', messageMetadata: { runId: 'run_1', toolCallId: 'call_2' } }),
        JSON.stringify({ type: 'tool-output-error', toolCallId: 'call_2', errorText: 'quota exceeded' }),
        JSON.stringify({ type: 'finish', finishReason: 'error' }),
      ]),
    )
    await expect(outputsOf(tools['progress-tool']!.execute!({}, { toolCallId: 'call_2', messages: [], context: {} }))).rejects.toMatchObject({
      code: 'EXECUTION_FAILED',
      message: 'quota exceeded',
      runId: 'run_1',
    })
  })

  it('refuses a stream that ends without an output', async () => {
    const tools = await toAiSdkTools(fakeServer([JSON.stringify({ type: 'finish', finishReason: 'stop' })]))
    await expect(outputsOf(tools['progress-tool']!.execute!({}, { toolCallId: 'call_3', messages: [], context: {} }))).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' })
  })
})

describe('toAiSdkTools names', () => {
  /** A server that lists tools with these ids. */
  const listing = (ids: string[]) =>
    createToolClient({ fetcher: { fetch: async () => Response.json({ tools: ids.map((id) => ({ ...descriptor, id })) }) } })

  it('keys each tool by its name for the model: the id where providers take it, else each other character _ and at most 64', async () => {
    const long = `${'a'.repeat(70)}`
    const tools = await toAiSdkTools(listing(['weather-tool', 'get_weather_2', 'Lookup order', 'orders.lookup', 'ünïcode/€', long]))
    expect(Object.keys(tools)).toEqual(['weather-tool', 'get_weather_2', 'Lookup_order', 'orders_lookup', '_n_code__', 'a'.repeat(64)])
  })

  it('refuses two ids that would have one name, naming both, rather than hide one', async () => {
    await expect(toAiSdkTools(listing(['orders.lookup', 'orders_lookup']))).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      message: expect.stringContaining('"orders.lookup" and "orders_lookup" would both be the AI SDK tool "orders_lookup"'),
    })
    // Picking one with `tools` is the way out.
    expect(Object.keys(await toAiSdkTools(listing(['orders.lookup', 'orders_lookup']), { tools: ['orders.lookup'] }))).toEqual(['orders_lookup'])
  })
})
