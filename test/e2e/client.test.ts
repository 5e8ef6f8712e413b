import { generateText, stepCountIs } from 'ai'
import { describe, expect, inject, it } from 'vitest'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient, type SequencedEvent } from 'toolroute/client'
import type { tools } from '../../.toolroute/tools.ts'
import type { weatherTool } from '../../tools/weather-tool.ts'
import type { generateReport } from '../../tools/generate-report.ts'
import type { deleteFile } from '../../tools/delete-file.ts'
import { cutEventStream } from '../fixtures/cut-event-stream.ts'
import { toolCallingModel } from '../fixtures/scripted-model.ts'

type Tools = [typeof weatherTool, typeof generateReport, typeof deleteFile]
const baseUrl = () => inject('baseUrl')

async function collect(events: AsyncIterable<SequencedEvent>): Promise<SequencedEvent[]> {
  const all: SequencedEvent[] = []
  for await (const entry of events) all.push(entry)
  return all
}

describe('toolroute/client against wrangler dev', () => {
  it('lists, calls and streams over HTTP', async () => {
    const client = createToolClient<Tools>({ baseUrl: baseUrl() })
    expect((await client.list()).map((tool) => tool.id)).toContain('generate-report')
    const result = await client.call('weather-tool', { location: 'Lisbon' })
    expect(result).toMatchObject({ status: 'completed', output: { location: 'Lisbon', temperatureCelsius: 21 } })
    const events = await collect(client.stream('weather-tool', { location: 'Porto' }))
    expect(events.map((entry) => entry.event.type)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])
    await expect(client.call('weather-tool', { location: '' })).rejects.toMatchObject({ code: 'INPUT_VALIDATION_FAILED', status: 400 })
  })

  it('streams the input as it arrives, over a chunked request body', async () => {
    const client = createToolClient<Tools>({ baseUrl: baseUrl() })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let sent = 0
    async function* pieces() {
      sent += 1
      yield '{"location":"Fa'
      await gate
      sent += 1
      yield 'ro"}'
    }
    const seen: SequencedEvent[] = []
    for await (const entry of client.stream('weather-tool', pieces())) {
      seen.push(entry)
      // The server reports the first piece while the second does not exist yet.
      if (entry.event.type === 'tool-input-delta' && sent === 1) release()
    }
    expect(seen.find((entry) => entry.event.type === 'tool-input-delta')?.event).toMatchObject({ inputTextDelta: '{"location":"Fa' })
    expect(seen.find((entry) => entry.event.type === 'tool-output-available')?.event).toMatchObject({ output: { location: 'Faro' } })
  })

  it('follows a background run through a forced disconnect and delivers every event exactly once', async () => {
    const client = createToolClient<typeof tools>({ baseUrl: baseUrl() })
    const call = await client.call('generate-report', { month: '2026-09', delayMs: 2500 })
    expect(call.status).toBe('running')

    // The first connection is cut right after the tool's first log, while it sleeps: mid-run.
    const followed: SequencedEvent[] = []
    const reconnections: { cursor: string | null; lastYielded: number | undefined }[] = []
    let statusAtCut: Promise<string> | undefined
    const cutting = async (request: Request): Promise<Response> => {
      const response = await fetch(request)
      if (!request.url.includes('/events')) return response
      reconnections.push({ cursor: request.headers.get('last-event-id'), lastYielded: followed.at(-1)?.seq })
      if (reconnections.length > 1) return response
      return cutEventStream(response, (frame) => frame.includes('"type":"data-tool-log"'), {
        onCut: () => void (statusAtCut = client.getRun(call.runId).then((run) => run.status)),
      })
    }
    for await (const entry of createToolClient({ baseUrl: baseUrl(), fetch: cutting }).follow(call.runId, { retryDelayMs: 10 })) followed.push(entry)

    expect(await statusAtCut).toBe('running')
    const full = await collect(client.follow(call.runId))
    expect(followed).toEqual(full)
    expect(new Set(followed.map((entry) => entry.seq)).size).toBe(followed.length)
    expect(followed.at(-2)?.event).toMatchObject({ type: 'tool-output-available', output: { month: '2026-09', rows: 31 } })
    // Two connections; the second resumed after the last event the consumer had been given.
    expect(reconnections).toHaveLength(2)
    expect(reconnections[0]!.cursor).toBe('0')
    expect(reconnections[1]!.lastYielded).toBeGreaterThan(0)
    expect(reconnections[1]!.cursor).toBe(String(reconnections[1]!.lastYielded))
  })
})

describe('toolroute/ai against wrangler dev', () => {
  it('generateText with the AI SDK’s mock model calls a remote tool end to end', async () => {
    const { model, prompts } = toolCallingModel([{ toolCallId: 'call_e2e', toolName: 'weather-tool', input: { location: 'Coimbra' } }])
    const result = await generateText({ model, tools: await toAiSdkTools(createToolClient<Tools>({ baseUrl: baseUrl() })), prompt: 'Weather in Coimbra?', stopWhen: stepCountIs(3) })
    const toolResults = result.steps.flatMap((step) => step.toolResults)
    expect(toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'call_e2e', toolName: 'weather-tool', input: { location: 'Coimbra' }, output: { location: 'Coimbra', temperatureCelsius: 21, conditions: 'sunny' } }),
    ])
    expect(result.text).toBe('Done.')
    expect(JSON.stringify(prompts[1])).toContain('Coimbra')
  })
})

describe('Mastra compatibility against wrangler dev', () => {
  it('answers a Mastra-shaped list and execute', async () => {
    const list = (await (await fetch(`${baseUrl()}/api/tools`)).json()) as Record<string, { id: string; inputSchema: string }>
    expect(JSON.parse(list['weather-tool']!.inputSchema)).toMatchObject({ json: { type: 'object' } })
    const response = await fetch(`${baseUrl()}/api/tools/weather-tool/execute?`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { location: 'Aveiro' }, requestContext: {} }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ location: 'Aveiro', temperatureCelsius: 21, conditions: 'sunny' })
  })
})
