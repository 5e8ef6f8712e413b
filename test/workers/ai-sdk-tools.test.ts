import { SELF } from 'cloudflare:test'
import { generateText, stepCountIs, streamText, type ModelMessage } from 'ai'
import { describe, expect, it } from 'vitest'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient } from 'toolroute/client'
import type { weatherTool } from '../../tools/weather-tool.ts'
import { toolCallingModel } from '../fixtures/scripted-model.ts'
import { streamingToolModel } from '../fixtures/streaming-tool-model.ts'

const client = createToolClient({ fetcher: SELF })

// This file runs twice: against AI SDK 7 (`ai`) and, in the `workers-ai6` project, against AI SDK 6
// (`ai` aliased to `ai6`). Where the majors differ on purpose, the test asks which one it has.
type GenerateResult = Awaited<ReturnType<typeof generateText>>
const isAiSdk7 = (result: GenerateResult) => 'responseMessages' in result
/** Every message of a result, the approved calls' results first: `responseMessages` in 7, `response.messages` in 6. */
const responseMessagesOf = (result: GenerateResult): ModelMessage[] =>
  (result as { responseMessages?: ModelMessage[] }).responseMessages ?? result.response.messages

/** Passes a request to the Worker, noting something of it first. */
function record(seen: string[], request: Request, what: (request: Request) => string): Promise<Response> {
  seen.push(what(request))
  return SELF.fetch(request)
}

describe('toAiSdkTools over a service binding', () => {
  it('makes AI SDK tools of the server’s tools, with their schemas and approval', async () => {
    const tools = await toAiSdkTools(client)
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['weather-tool', 'delete-file', 'book-flight', 'chart-tool']))
    expect(tools['weather-tool']!.description).toBe('Get the current weather for a location')
    expect(tools['weather-tool']!.needsApproval).toBeUndefined()
    expect(tools['delete-file']!.needsApproval).toBe(true)
    // A rule only the server can evaluate: the AI SDK asks every time.
    expect(tools['transfer-money']!.needsApproval).toBe(true)
    const only = await toAiSdkTools(createToolClient<[typeof weatherTool]>({ fetcher: SELF }), { tools: ['weather-tool'] })
    expect(Object.keys(only)).toEqual(['weather-tool'])
    await expect(toAiSdkTools(client, { tools: ['nope'] })).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' })
  })

  it("names each tool as every provider accepts it ('Lookup order' → Lookup_order, orders.lookup → orders_lookup), and calls it by its id", async () => {
    const tools = await toAiSdkTools(client)
    // OpenAI's rule for function names, the strictest (a dot or a space is a 400 there).
    for (const name of Object.keys(tools)) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['weather-tool', 'Lookup_order', 'orders_lookup']))
    expect(Object.keys(tools)).not.toContain('Lookup order')
    const { model, offered } = toolCallingModel([
      { toolCallId: 'call_named_1', toolName: 'Lookup_order', input: { orderNumber: 'A-1' } },
      { toolCallId: 'call_named_2', toolName: 'orders_lookup', input: { orderNumber: 'B-2' } },
    ])
    const result = await generateText({ model, tools, prompt: 'Find orders A-1 and B-2', stopWhen: stepCountIs(3) })
    expect(offered[0]).toEqual(expect.arrayContaining(['Lookup_order', 'orders_lookup']))
    const toolResults = result.steps.flatMap((step) => step.toolResults)
    // Each output is its own tool's: the server ran 'Lookup order' and 'orders.lookup' by id.
    expect(toolResults.map((toolResult) => [toolResult.toolName, toolResult.output])).toEqual([
      ['Lookup_order', { orderNumber: 'A-1', fields: [], agentId: '' }],
      ['orders_lookup', { orderNumber: 'B-2' }],
    ])
  })

  it('runs a remote tool from generateText, with the call id the model gave', async () => {
    const { model, prompts } = toolCallingModel([{ toolCallId: 'call_ai_1', toolName: 'weather-tool', input: { location: 'Lisbon' } }])
    const result = await generateText({ model, tools: await toAiSdkTools(client), prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(3) })
    const toolResults = result.steps.flatMap((step) => step.toolResults)
    expect(toolResults).toHaveLength(1)
    expect(toolResults[0]).toMatchObject({ toolCallId: 'call_ai_1', toolName: 'weather-tool', output: { location: 'Lisbon', temperatureCelsius: 21 } })
    expect(result.text).toBe('Done.')
    // The model was sent the output as JSON (the server's default model output).
    const sent = prompts[1]!.at(-1)!.content as { type: string; output: unknown }[]
    expect(sent[0]).toMatchObject({ type: 'tool-result', output: { type: 'json', value: { location: 'Lisbon' } } })
  })

  it('sends the model what the tool’s toModelOutput made', async () => {
    const { model, prompts } = toolCallingModel([{ toolCallId: 'call_chart', toolName: 'chart-tool', input: { quarter: 'Q2' } }])
    const result = await generateText({ model, tools: await toAiSdkTools(client), prompt: 'Chart Q2', stopWhen: stepCountIs(3) })
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ output: { quarter: 'Q2', total: 1400 } })
    const sent = prompts[1]!.at(-1)!.content as { output: { type: string; value: { type: string }[] } }[]
    expect(sent[0]!.output.type).toBe('content')
    // AI SDK 7 sends an image part as `file-data` with its media type; AI SDK 6 as `image-data`.
    const image = isAiSdk7(result) ? { type: 'file-data', mediaType: 'image/png' } : { type: 'image-data', mediaType: 'image/png' }
    expect(sent[0]!.output.value).toEqual([expect.objectContaining({ type: 'text' }), expect.objectContaining(image)])
  })

  it('turns a tool failure into an AI SDK tool error, with the server’s message', async () => {
    const { model } = toolCallingModel([{ toolCallId: 'call_fail', toolName: 'failing-tool', input: { message: 'disk full' } }])
    const result = await generateText({ model, tools: await toAiSdkTools(client), prompt: 'Fail' })
    const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error')
    expect(errors).toHaveLength(1)
    expect(String((errors[0] as { error: unknown }).error)).toContain('disk full')
  })

  it('goes through the AI SDK’s approval, then approves the server’s run', async () => {
    const seen: string[] = []
    const recording = createToolClient({ fetcher: { fetch: (input, init) => record(seen, new Request(input, init), (request) => new URL(request.url).pathname) } })
    const tools = await toAiSdkTools(recording)
    const { model } = toolCallingModel([{ toolCallId: 'call_delete', toolName: 'delete-file', input: { path: '/tmp/ai' } }])
    const first = await generateText({ model, tools, prompt: 'Delete /tmp/ai' })
    const request = first.content.find((part) => part.type === 'tool-approval-request')
    expect(request).toBeDefined()
    expect(first.steps.flatMap((step) => step.toolResults)).toHaveLength(0)
    expect(seen.filter((path) => path !== '/tools')).toEqual([])

    const messages: ModelMessage[] = [
      { role: 'user', content: 'Delete /tmp/ai' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
    ]
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) })
    // The approved call runs before the first step; its result opens the response messages.
    const toolMessage = responseMessagesOf(second).find((message) => message.role === 'tool')!
    expect(toolMessage.content[0]).toMatchObject({ type: 'tool-result', toolCallId: 'call_delete', output: { type: 'json', value: { deleted: '/tmp/ai' } } })
    expect(second.text).toBe('Done.')
    // On the server: a call under the model's tool call id, then an approval of its run.
    const calls = seen.filter((path) => path !== '/tools')
    expect(calls[0]).toBe('/tools/delete-file')
    expect(calls[1]).toMatch(/^\/runs\/[^/]+\/approve$/)
    const runId = calls[1]!.split('/')[2]!
    expect(await client.getRun(runId)).toMatchObject({ status: 'completed', toolCallId: 'call_delete', output: { deleted: '/tmp/ai' } })
  })

  it('never reaches the server when the AI SDK approval is declined', async () => {
    const seen: string[] = []
    const recording = createToolClient({ fetcher: { fetch: (input, init) => record(seen, new Request(input, init), (request) => request.url) } })
    const tools = await toAiSdkTools(recording)
    const { model } = toolCallingModel([{ toolCallId: 'call_keep', toolName: 'delete-file', input: { path: '/keep' } }])
    const first = await generateText({ model, tools, prompt: 'Delete /keep' })
    const request = first.content.find((part) => part.type === 'tool-approval-request')!
    const second = await generateText({
      model,
      tools,
      messages: [
        { role: 'user', content: 'Delete /keep' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'no' }] },
      ],
    })
    expect(second.steps[0]!.content.some((part) => part.type === 'tool-result')).toBe(false)
    expect(seen.filter((url) => url.includes('/tools/delete-file'))).toEqual([])
  })

  it('returns a suspension as the result, or resumes it through onSuspend', async () => {
    const call = [{ toolCallId: 'call_flight', toolName: 'book-flight', input: { from: 'LIS', to: 'OPO' } }]
    const pending = await generateText({ model: toolCallingModel(call).model, tools: await toAiSdkTools(client), prompt: 'Book' })
    const output = pending.steps[0]!.toolResults[0]!.output as { status: string; runId: string; suspendPayload: { seats: string[] } }
    expect(output).toMatchObject({ status: 'suspended', suspendPayload: { seats: ['12A', '12B', '14C'] } })
    expect((await client.getRun(output.runId)).status).toBe('suspended')

    const asked: unknown[] = []
    const tools = await toAiSdkTools(client, {
      onSuspend: (suspension) => {
        asked.push(suspension)
        return { seat: '14C' }
      },
    })
    const resumed = await generateText({ model: toolCallingModel(call).model, tools, prompt: 'Book' })
    expect(resumed.steps[0]!.toolResults[0]!.output).toEqual({ confirmation: 'LIS-OPO-14C', seat: '14C' })
    expect(asked).toEqual([expect.objectContaining({ toolId: 'book-flight', toolCallId: 'call_flight', suspendPayload: expect.objectContaining({ seats: ['12A', '12B', '14C'] }) })])
  })

  it('waits for a background tool and yields its output', async () => {
    const { model } = toolCallingModel([{ toolCallId: 'call_report', toolName: 'generate-report', input: { month: '2026-07', delayMs: 50 } }])
    const result = await generateText({ model, tools: await toAiSdkTools(client), prompt: 'Report' })
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ month: '2026-07', rows: 31 })
  })

  it('an approved call streams what the tool writes and yields as preliminary results, then its output', async () => {
    const tools = await toAiSdkTools(client, { tools: ['approved-drafts'] })
    const call = { toolCallId: 'call_drafts', toolName: 'approved-drafts', input: { topic: 'Lisbon' } }
    const first = await generateText({ model: toolCallingModel([call]).model, tools, prompt: 'Draft' })
    const request = first.content.find((part) => part.type === 'tool-approval-request')!
    const result = streamText({
      model: streamingToolModel(call),
      tools,
      messages: [
        { role: 'user', content: 'Draft' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
      ],
      stopWhen: stepCountIs(2),
    })
    const results: unknown[] = []
    for await (const part of result.fullStream) if (part.type === 'tool-result') results.push([part.output, part.preliminary ?? false])
    expect(results).toEqual([
      [{ stage: 'outline' }, true],
      [{ text: 'Lis' }, true],
      [{ text: 'Lisbon' }, true],
      [{ text: 'Lisbon' }, true],
      [{ text: 'Lisbon' }, false],
    ])
    expect(await result.text).toBe('Done.')
  })

  it("passes the agent's abort signal to the call", async () => {
    const controller = new AbortController()
    const signals: AbortSignal[] = []
    const watching = createToolClient({
      fetcher: {
        fetch: (input, init) => {
          const request = new Request(input, init)
          if (request.method === 'POST') {
            signals.push(request.signal)
            controller.abort(new Error('the user left'))
          }
          return SELF.fetch(request)
        },
      },
    })
    const { model } = toolCallingModel([{ toolCallId: 'call_abort', toolName: 'weather-tool', input: { location: 'Lisbon' } }])
    await expect(generateText({ model, tools: await toAiSdkTools(watching), prompt: 'Weather', abortSignal: controller.signal, stopWhen: stepCountIs(3) })).rejects.toThrow()
    expect(signals).toHaveLength(1)
    expect(signals[0]!.aborted).toBe(true)
  })

  it('keys a call by the tool call id: the same call id again answers the first run, the tool runs once', async () => {
    const seen: string[] = []
    const recording = createToolClient({ fetcher: { fetch: (input, init) => record(seen, new Request(input, init), (request) => request.headers.get('idempotency-key') ?? '') } })
    const tools = await toAiSdkTools(recording, { tools: ['counted-call'] })
    const toolCallId = `call_${crypto.randomUUID()}`
    const call = [{ toolCallId, toolName: 'counted-call', input: { key: toolCallId } }]
    const first = await generateText({ model: toolCallingModel(call).model, tools, prompt: 'Who?' })
    const again = await generateText({ model: toolCallingModel(call).model, tools, prompt: 'Who?' })
    expect(seen.filter(Boolean)).toEqual([toolCallId, toolCallId])
    const outputOf = (result: { steps: { toolResults: { output: unknown }[] }[] }) => result.steps[0]!.toolResults[0]!.output
    expect(outputOf(first)).toEqual({ executions: 1 })
    expect(outputOf(again)).toEqual({ executions: 1 })
  })

  it('names each call’s run through onRun, once, before its result', async () => {
    const runs: { toolId: string; runId: string; toolCallId: string }[] = []
    const tools = await toAiSdkTools(client, { onRun: (run) => runs.push(run) })
    const { model } = toolCallingModel([{ toolCallId: 'call_on_run', toolName: 'weather-tool', input: { location: 'Porto' } }])
    await generateText({ model, tools, prompt: 'Weather in Porto?', stopWhen: stepCountIs(3) })
    expect(runs).toEqual([{ toolId: 'weather-tool', runId: expect.any(String), toolCallId: 'call_on_run' }])
    expect(await client.getRun(runs[0]!.runId)).toMatchObject({ status: 'completed', toolCallId: 'call_on_run' })
  })
})
