// SPEC §8, streaming a tool's output, through the real Worker: `context.writer` and async
// generator `execute` over JSON, over SSE (every chunk parsed by the AI SDK's own schema), and in
// durable runs (a background run, a run after approval): written events are stored and replayed,
// transient ones reach live readers only.
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { isToolDataEvent, type ToolEvent } from 'toolroute'
import { createToolClient, isToolDataEvent as isClientDataEvent } from 'toolroute/client'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { callTool, eventually } from './http-client.ts'
import { call, entriesOf, getRun, runAction, runEvents, sequenced, start } from './run-client.ts'

/** The chunks of an SSE body as the AI SDK parses them; a chunk its schema refuses fails the test. */
async function aiSdkChunks(response: Response): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = []
  const reader = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).getReader()
  while (true) {
    const { done, value } = await reader.read()
    if (done) return chunks
    // Every chunk must pass the schema (both majors: this file also runs in workers-ai6).
    if (!value.success) throw value.error
    chunks.push(value.value as UIMessageChunk)
  }
}

/** The UI message the AI SDK builds from chunks. */
async function uiMessageOf(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(chunk))
      controller.close()
    },
  })
  let message: UIMessage | undefined
  for await (const state of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) message = state
  return message!
}

const streamed = (events: ToolEvent[]) => events.filter((event) => event.type.startsWith('data-') || event.type === 'tool-output-available')

describe('context.writer over HTTP', () => {
  it('JSON carries only the final result', async () => {
    const response = await callTool('progress-writer', { steps: 2 })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'completed', output: { steps: 2, secret: 's3cret' }, modelOutput: { type: 'json' } })
  })

  it('SSE: each written value as it happens, in order, passed through the display view unchanged', async () => {
    const response = await callTool('progress-writer', { steps: 2 }, { sse: true })
    const toolCallId = response.headers.get('x-tool-call-id')
    const { events } = await readSse(response)
    expect(streamed(events)).toEqual([
      { type: 'data-tool-output', data: { toolCallId, output: { step: 1 } } },
      { type: 'data-heartbeat', data: { step: 1 }, transient: true },
      { type: 'data-progress', id: 'progress', data: { percent: 50 } },
      { type: 'data-tool-output', data: { toolCallId, output: { step: 2 } } },
      { type: 'data-heartbeat', data: { step: 2 }, transient: true },
      { type: 'data-progress', id: 'progress', data: { percent: 100 } },
      // The display transform applies to the output, never to what the tool chose to write.
      { type: 'tool-output-available', toolCallId, output: { steps: 2 } },
    ])
  })

  it('a transient chunk has no number of its own: it carries the id of the event before it', async () => {
    const { events, messages } = await readSse(await callTool('progress-writer', { steps: 2 }, { sse: true, query: '?view=raw' }))
    const ids = messages.filter((message) => message.data !== '[DONE]').map((message) => Number(message.id))
    const heartbeat = events.findIndex((event) => isToolDataEvent(event, 'data-heartbeat'))
    expect(ids[heartbeat]).toBe(ids[heartbeat - 1])
    const stored = ids.filter((_, index) => !isToolDataEvent(events[index]!, 'data-heartbeat'))
    expect(stored).toEqual(stored.map((_, index) => index + 1))
  })

  it("every chunk passes the AI SDK's uiMessageChunkSchema, and readUIMessageStream keeps the data parts", async () => {
    for (const view of ['display', 'raw', 'transcript']) {
      const chunks = await aiSdkChunks(await callTool('progress-writer', { steps: 3 }, { sse: true, query: `?view=${view}` }))
      expect(chunks.filter((chunk) => chunk.type === 'data-tool-output')).toHaveLength(3)
    }
    const message = await uiMessageOf(await aiSdkChunks(await callTool('progress-writer', { steps: 3 }, { sse: true })))
    // The AI SDK keeps one `data-progress` part (same id: replaced), no transient heartbeat.
    expect(message.parts.filter((part) => part.type === 'data-progress')).toEqual([{ type: 'data-progress', id: 'progress', data: { percent: 100 } }])
    expect(message.parts.some((part) => part.type === 'data-heartbeat')).toBe(false)
    expect(message.parts.filter((part) => part.type === 'data-tool-output')).toHaveLength(3)
  })

  it('a custom chunk without the data- prefix: the error reaches the tool; uncaught, EXECUTION_FAILED', async () => {
    const json = await callTool('bad-custom-writer', {})
    expect(json.status).toBe(500)
    expect(await json.json()).toEqual({ error: { code: 'EXECUTION_FAILED', message: expect.stringContaining('must start with "data-"') } })
    const { events } = await readSse(await callTool('bad-custom-writer', {}, { sse: true }))
    expect(typesOf(events).slice(-3)).toEqual(['data-tool-output', 'tool-output-error', 'finish'])
  })
})

describe('an async generator execute over HTTP', () => {
  const text = 'Tides follow the moon. Storms follow the wind. Sailors follow both.'

  it('JSON: the last value yielded, validated, with its model output', async () => {
    const response = await callTool('draft-summary', { text, maxSentences: 2 })
    expect(await response.json()).toMatchObject({
      status: 'completed',
      output: { summary: 'Tides follow the moon. Storms follow the wind.', sentences: 2, done: true },
      modelOutput: { type: 'json', value: { sentences: 2 } },
    })
  })

  it('SSE: each yield a preliminary tool-output-available, then the final one; the AI SDK reads it', async () => {
    const response = await callTool('draft-summary', { text }, { sse: true })
    const chunks = await aiSdkChunks(response)
    const outputs = chunks.filter((chunk) => chunk.type === 'tool-output-available') as { output: { sentences: number }; preliminary?: boolean }[]
    expect(outputs.map((chunk) => [chunk.output.sentences, chunk.preliminary ?? false])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [3, false],
    ])
    const message = await uiMessageOf(chunks)
    const part = message.parts.find((part) => part.type === 'tool-draft-summary') as { state: string; output: unknown; preliminary?: boolean }
    expect(part).toMatchObject({ state: 'output-available', output: { summary: text, sentences: 3, done: true } })
    expect(part.preliminary).toBeFalsy()
  })

  it('a generator that throws midway: its preliminary output stays, then tool-output-error; JSON 500 EXECUTION_FAILED', async () => {
    const { events } = await readSse(await callTool('flaky-drafts', {}, { sse: true }))
    expect(events.filter((event) => event.type === 'tool-output-available' || event.type === 'tool-output-error')).toEqual([
      { type: 'tool-output-available', toolCallId: expect.any(String), output: 'first draft', preliminary: true },
      { type: 'tool-output-error', toolCallId: expect.any(String), errorText: 'the model went away' },
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'error' })
    const json = await callTool('flaky-drafts', {})
    expect(json.status).toBe(500)
    expect(await json.json()).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'the model went away' } })
  })

  it('a final value against outputSchema: OUTPUT_VALIDATION_FAILED, no final output', async () => {
    const json = await callTool('wrong-final-drafts', {})
    expect(json.status).toBe(500)
    expect(await json.json()).toMatchObject({ error: { code: 'OUTPUT_VALIDATION_FAILED', issues: [{ path: ['text'] }] } })
    const chunks = await aiSdkChunks(await callTool('wrong-final-drafts', {}, { sse: true, query: '?view=raw' }))
    expect(chunks.filter((chunk) => chunk.type === 'tool-output-available').every((chunk) => (chunk as { preliminary?: boolean }).preliminary)).toBe(true)
    expect(chunks.map((chunk) => chunk.type).slice(-2)).toEqual(['tool-output-error', 'finish'])
  })
})

describe('streamed output in durable runs', () => {
  const files = ['src/a.ts', 'src/b.ts', 'README.md']

  it('a background run: its live stream has every chunk; the replay has the written ones, not the transient ones', async () => {
    const response = await call('index-repository', { repository: 'acme/site', files, delayMs: 30 }, { auth: 'alice', sse: true })
    const runId = response.headers.get('x-run-id')!
    const live = await readSse(response)
    expect(live.done).toBe(true)
    expect(live.events.filter((event) => event.type === 'data-tool-output').map((event) => (event.data.output as { file: string }).file)).toEqual(files)
    expect(live.events.filter((event) => isToolDataEvent(event, 'data-index-status')).length).toBeGreaterThan(0)

    const replay = await sequenced(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    const types = replay.entries.map((entry) => entry.event.type)
    expect(types.filter((type) => type === 'data-tool-output')).toHaveLength(3)
    expect(types).not.toContain('data-index-status')
    expect(types.slice(-3)).toEqual(['tool-output-available', 'data-tool-model-output', 'finish'])
    // Numbered without gaps: transient chunks never took a number.
    expect(replay.entries.map((entry) => entry.id)).toEqual(replay.entries.map((_, index) => index + 1))
    const run = (await (await getRun(runId, { auth: 'alice' })).json()) as { status: string; output: unknown }
    expect(run).toMatchObject({ status: 'completed', output: { repository: 'acme/site', indexed: 3 } })
  })

  it('a background run called with JSON: the written values are in its log for any later reader', async () => {
    const { runId } = await start('index-repository', { repository: 'acme/api', files: files.slice(0, 2), delayMs: 0 }, { auth: 'alice' })
    await eventually(
      async () => ((await (await getRun(runId, { auth: 'alice' })).json()) as { status: string }).status,
      (status) => status === 'completed',
    )
    const { entries } = await sequenced(await runEvents(runId, { auth: 'alice', after: 0 }))
    expect(entries.filter((entry) => entry.event.type === 'data-tool-output').map((entry) => entry.event)).toEqual([
      { type: 'data-tool-output', data: { toolCallId: expect.any(String), output: { file: 'src/a.ts', indexed: 1, total: 2 } } },
      { type: 'data-tool-output', data: { toolCallId: expect.any(String), output: { file: 'src/b.ts', indexed: 2, total: 2 } } },
    ])
  })

  it('after approval: the approve stream carries writes, heartbeat and drafts; the replay keeps all but the heartbeat', async () => {
    const { runId } = await start('approved-drafts', { topic: 'harbours' }, { auth: 'alice' })
    const approved = await runAction(runId, 'approve', {}, { auth: 'alice', sse: true })
    expect(approved.status).toBe(200)
    const chunks = await aiSdkChunks(approved)
    // The approval's own chunk is not this feature's: it is left out, whichever form it takes.
    expect(chunks.map((chunk) => chunk.type).filter((type) => !type.includes('approval-response'))).toEqual([
      'start',
      'data-tool-output',
      'data-heartbeat',
      'tool-output-available',
      'tool-output-available',
      'tool-output-available',
      'finish',
    ])
    const replay = await readSse(await runEvents(runId, { auth: 'alice', view: 'raw' }))
    expect(typesOf(replay.events)).not.toContain('data-heartbeat')
    expect(replay.events.filter((event) => event.type === 'tool-output-available').map((event) => [event.output, event.preliminary ?? false])).toEqual([
      [{ text: 'har' }, true],
      [{ text: 'harbours' }, true],
      [{ text: 'harbours' }, false],
    ])
    expect(typesOf(replay.events)).toContain('data-tool-output')
    const entries = entriesOf(replay.messages)
    expect(entries.map((entry) => entry.id)).toEqual(entries.map((_, index) => index + 1))
  })
})

describe('streamed output after resume', () => {
  it('the resume stream carries the writes and the heartbeat; the run’s log keeps both steps’ writes, no heartbeat', async () => {
    const first = await call('resumed-writer', {}, { auth: 'alice', sse: true })
    const runId = first.headers.get('x-run-id')!
    const firstEvents = (await readSse(first)).events
    expect(typesOf(firstEvents).slice(-3)).toEqual(['data-tool-output', 'data-tool-suspended', 'finish'])
    const resumed = await runAction(runId, 'resume', { resumeData: { name: 'Ada' } }, { auth: 'alice', sse: true })
    const chunks = await aiSdkChunks(resumed)
    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'data-tool-resumed', 'data-tool-output', 'data-heartbeat', 'tool-output-available', 'finish'])
    const replay = await readSse(await runEvents(runId, { auth: 'alice' }))
    expect(replay.events.filter((event) => event.type === 'data-tool-output').map((event) => event.data.output)).toEqual(['asking', { resumedWith: 'Ada' }])
    expect(typesOf(replay.events)).not.toContain('data-heartbeat')
  })
})

describe("the README's client loop", () => {
  it('reads written values, live-only status parts and the final output of index-repository', async () => {
    const client = createToolClient({ fetcher: SELF, headers: { authorization: 'Bearer alice' } })
    const files = ['a.ts', 'b.ts']
    const indexed: unknown[] = []
    const status: unknown[] = []
    let done: unknown
    for await (const { event } of client.stream('index-repository', { repository: 'acme/site', files })) {
      if (event.type === 'data-tool-output') indexed.push(event.data.output)
      if (isClientDataEvent(event, 'data-index-status')) status.push(event.data)
      if (event.type === 'tool-output-available' && !event.preliminary) done = event.output
    }
    expect(indexed).toEqual([
      { file: 'a.ts', indexed: 1, total: 2 },
      { file: 'b.ts', indexed: 2, total: 2 },
    ])
    expect(status).toEqual([{ percent: 50 }, { percent: 100 }])
    expect(done).toMatchObject({ repository: 'acme/site', indexed: 2 })
  })
})
