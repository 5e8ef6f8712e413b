// Every stream the Worker writes (a call, an approve, a decline, a resume, a run's events, errors),
// read by AI SDK 6 and AI SDK 7's own parsers: each chunk must pass that major's
// `uiMessageChunkSchema`, and its `readUIMessageStream` must end in the right tool-part state.
// `ai6` is AI SDK 6 installed under an alias, so both majors run side by side in workerd.
import * as ai7 from 'ai'
import * as ai6 from 'ai6'
import { describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { callTool, chunkedBody, origin } from './http-client.ts'
import { as, runAction, runEvents, start } from './run-client.ts'

interface AiSdk {
  parseJsonEventStream: typeof ai7.parseJsonEventStream
  readUIMessageStream: typeof ai7.readUIMessageStream
  uiMessageChunkSchema: typeof ai7.uiMessageChunkSchema
}
type Message = ai7.UIMessage
type ToolPart = { type: string; state: string; toolCallId: string; output?: unknown; errorText?: string; approval?: unknown }

const majors: [string, AiSdk][] = [
  ['AI SDK 6', ai6 as unknown as AiSdk],
  ['AI SDK 7', ai7],
]

/** One response read by one major: its chunks (each schema-checked) and the message they build. */
async function read(sdk: AiSdk, response: Response, message?: Message) {
  expect(response.headers.get('content-type')).toBe('text/event-stream')
  const chunks: { type: string }[] = []
  const rejected: unknown[] = []
  const stream = sdk.parseJsonEventStream({ stream: response.body!, schema: sdk.uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown; rawValue?: unknown }, ai7.UIMessageChunk>({
      transform(result, controller) {
        if (!result.success) {
          rejected.push(result.rawValue ?? result.error)
          return
        }
        chunks.push(result.value as { type: string })
        controller.enqueue(result.value as ai7.UIMessageChunk)
      },
    }),
  )
  let last: Message | undefined
  for await (const state of sdk.readUIMessageStream<Message>({ stream, terminateOnError: true, ...(message ? { message } : {}) })) last = state
  return { chunks, rejected, message: last!, toolPart: last?.parts.find((part) => part.type.startsWith('tool-')) as ToolPart | undefined }
}

const sse = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  path.startsWith('/runs/')
    ? runAction(path.split('/')[2]!, path.split('/')[3] as 'approve', body, { headers: { accept: 'text/event-stream', ...headers } })
    : callTool(path.replace('/tools/', ''), body, { sse: true, headers })

describe.each(majors)('%s reads every toolroute stream', (_, sdk) => {
  it('a completed call, in the display and the raw view', async () => {
    const display = await read(sdk, await callTool('weather-tool', { location: 'Lisbon' }, { sse: true }))
    expect(display.rejected).toEqual([])
    expect(display.toolPart).toMatchObject({ type: 'tool-weather-tool', state: 'output-available', output: { location: 'Lisbon' } })
    const raw = await read(sdk, await callTool('chart-tool', { quarter: 'Q2' }, { sse: true, query: '?view=raw' }))
    expect(raw.rejected).toEqual([])
    expect(raw.chunks.map((chunk) => chunk.type)).toContain('data-tool-model-output')
    expect(raw.toolPart).toMatchObject({ state: 'output-available', output: { quarter: 'Q2', total: 1400 } })
  })

  it('an input error and an execution error end as output-error', async () => {
    // A chunked body streams at once, so its validation error arrives inside the stream.
    const body = chunkedBody()
    body.send('{"location": 5}')
    body.end()
    const response = await SELF.fetch(`${origin}/tools/weather-tool`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: body.stream,
    })
    const invalid = await read(sdk, response)
    expect(invalid.rejected).toEqual([])
    expect(invalid.toolPart).toMatchObject({ state: 'output-error', errorText: expect.stringContaining('location') })
    const failed = await read(sdk, await callTool('failing-tool', { message: 'disk full' }, { sse: true }))
    expect(failed.rejected).toEqual([])
    expect(failed.toolPart).toMatchObject({ state: 'output-error', errorText: expect.stringContaining('disk full') })
  })

  it('an approval: the call asks, the approve stream carries on to the output', async () => {
    const asked = await read(sdk, await sse('/tools/delete-file', { path: '/tmp/a' }, as('ai-sdk')))
    expect(asked.rejected).toEqual([])
    expect(asked.toolPart).toMatchObject({ state: 'approval-requested' })
    const { runId } = asked.message.metadata as { runId: string }
    const approved = await read(sdk, await runAction(runId, 'approve', undefined, { auth: 'ai-sdk', sse: true }), asked.message)
    expect(approved.rejected).toEqual([])
    // The decision travels as a data part both majors accept; the tool part ends with the output.
    expect(approved.chunks.map((chunk) => chunk.type)).toEqual(['start', 'data-tool-approval-response', 'tool-output-available', 'finish'])
    expect(approved.toolPart).toMatchObject({ state: 'output-available', output: { deleted: '/tmp/a' } })
  })

  it('a decline ends the tool part as output-denied', async () => {
    const asked = await read(sdk, await sse('/tools/delete-file', { path: '/tmp/b' }, as('ai-sdk')))
    const { runId } = asked.message.metadata as { runId: string }
    const declined = await read(sdk, await runAction(runId, 'decline', { reason: 'not today' }, { auth: 'ai-sdk', sse: true }), asked.message)
    expect(declined.rejected).toEqual([])
    expect(declined.toolPart).toMatchObject({ state: 'output-denied' })
  })

  it('a suspension and its resume', async () => {
    const suspended = await read(sdk, await sse('/tools/book-flight', { from: 'LIS', to: 'OSL' }, as('ai-sdk')))
    expect(suspended.rejected).toEqual([])
    expect(suspended.chunks.map((chunk) => chunk.type)).toContain('data-tool-suspended')
    const { runId } = suspended.message.metadata as { runId: string }
    const resumed = await read(sdk, await runAction(runId, 'resume', { resumeData: { seat: '12A' } }, { auth: 'ai-sdk', sse: true }), suspended.message)
    expect(resumed.rejected).toEqual([])
    expect(resumed.toolPart).toMatchObject({ state: 'output-available', output: { seat: '12A' } })
  })

  it("a run's events, replayed from the events route, after an approval", async () => {
    const { runId } = await start('delete-file', { path: '/tmp/c' }, { auth: 'ai-sdk' })
    await (await runAction(runId, 'approve', undefined, { auth: 'ai-sdk' })).json()
    const replay = await read(sdk, await runEvents(runId, { auth: 'ai-sdk', view: 'raw' }))
    expect(replay.rejected).toEqual([])
    expect(replay.chunks.map((chunk) => chunk.type)).toContain('data-tool-approval-response')
    expect(replay.toolPart).toMatchObject({ state: 'output-available', output: { deleted: '/tmp/c' } })
  })

  it('a background run followed live to its output', async () => {
    const { runId } = await start('generate-report', { month: '2026-11', delayMs: 50 }, { auth: 'ai-sdk' })
    const followed = await read(sdk, await runEvents(runId, { auth: 'ai-sdk' }))
    expect(followed.rejected).toEqual([])
    expect(followed.toolPart).toMatchObject({ state: 'output-available', output: { month: '2026-11', rows: 31 } })
  })
})

describe('AI SDK 7 chunks, on request (?aiSdk=7)', () => {
  const approveStream = (runId: string, query = '') =>
    SELF.fetch(`${origin}/runs/${runId}/approve${query}`, { method: 'POST', headers: { accept: 'text/event-stream', ...as('ai-sdk') } })

  it('sends tool-approval-response itself, which AI SDK 7 reads and AI SDK 6 rejects', async () => {
    const asked = await read(ai7, await sse('/tools/delete-file?aiSdk=7', { path: '/tmp/d' }, as('ai-sdk')))
    expect(asked.toolPart).toMatchObject({ state: 'approval-requested' })
    const { runId } = asked.message.metadata as { runId: string }
    const response = await approveStream(runId, '?aiSdk=7')
    const copy = response.clone()
    const v7 = await read(ai7, response, asked.message)
    expect(v7.rejected).toEqual([])
    expect(v7.chunks.map((chunk) => chunk.type)).toEqual(['start', 'tool-approval-response', 'tool-output-available', 'finish'])
    // The reason this is opt-in: the same stream breaks an AI SDK 6 reader.
    const v6 = await read(ai6 as unknown as AiSdk, copy, asked.message)
    expect(v6.rejected).toEqual([expect.objectContaining({ type: 'tool-approval-response' })])
  })

  it('a keyed call repeated with ?aiSdk=7 replays its run in the same dialect', async () => {
    const call = () =>
      callTool('delete-file', { path: '/tmp/f' }, { sse: true, query: '?aiSdk=7', headers: { 'idempotency-key': 'ai7-replay', ...as('ai-sdk') } })
    const asked = await read(ai7, await call())
    const { runId } = asked.message.metadata as { runId: string }
    await (await runAction(runId, 'approve', undefined, { auth: 'ai-sdk' })).json()
    const repeat = await call()
    expect(repeat.headers.get('idempotent-replayed')).toBe('true')
    const replayed = await read(ai7, repeat)
    expect(replayed.rejected).toEqual([])
    expect(replayed.chunks.map((chunk) => chunk.type)).toContain('tool-approval-response')
    expect(replayed.chunks.map((chunk) => chunk.type)).not.toContain('data-tool-approval-response')
  })

  it('without the parameter, the same step sends the data part', async () => {
    const { runId } = await start('delete-file', { path: '/tmp/e' }, { auth: 'ai-sdk' })
    const text = await (await approveStream(runId)).text()
    expect(text).toContain('"type":"data-tool-approval-response","data":{"approvalId":')
    expect(text).not.toContain('"type":"tool-approval-response"')
  })
})
