import { describe, expect, it, vi } from 'vitest'
import { sseResponse } from '../../src/http/sse-response.ts'
import type { SequencedEvent, ToolEvent } from 'toolroute'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { callTool } from './http-client.ts'

const tenant = { 'x-request-context': JSON.stringify({ tenantId: 'acme' }) }

describe('SSE: the AI SDK UI message stream', () => {
  it('carries the stream headers and the run ids', async () => {
    const response = await callTool('weather-tool', { location: 'Paris' }, { sse: true })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    expect(response.headers.get('x-run-id')).toBeTruthy()
    expect(response.headers.get('x-tool-call-id')).toBeTruthy()
    await response.body?.cancel()
  })

  it('writes each event as `id: <seq>` then `data: <json>`, no `event:` line, and ends with [DONE]', async () => {
    const text = await (await callTool('weather-tool', { location: 'Paris' }, { sse: true })).text()
    const blocks = text.split('\n\n').filter(Boolean)
    expect(blocks.at(-1)).toBe('data: [DONE]')
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(text).not.toMatch(/^event:/m)
    // Ids are places in the run's log (the replay cursor): increasing, with gaps where the view
    // drops an event (display drops data-tool-model-output).
    const ids = blocks.slice(0, -1).map((block) => {
      const [idLine, dataLine, ...rest] = block.split('\n')
      expect(idLine).toMatch(/^id: \d+$/)
      expect(dataLine).toMatch(/^data: \{.*\}$/)
      expect(rest).toEqual([])
      return Number(idLine!.slice(4))
    })
    expect(ids[0]).toBe(1)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(ids).size).toBe(ids.length)
    const raw = await (await callTool('weather-tool', { location: 'Paris' }, { sse: true, query: '?view=raw' })).text()
    const rawIds = [...raw.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))
    expect(rawIds).toEqual(rawIds.map((_, index) => index + 1))
  })

  it('sends the lifecycle in order, with ids matching the headers', async () => {
    const response = await callTool('weather-tool', { location: 'Paris' }, { sse: true })
    const runId = response.headers.get('x-run-id')
    const toolCallId = response.headers.get('x-tool-call-id')
    const { events, done, messages } = await readSse(response)
    expect(done).toBe(true)
    expect(messages.map((message) => message.event)).toEqual(messages.map(() => undefined))
    expect(typesOf(events).filter((type) => type !== 'tool-input-delta')).toEqual([
      'start',
      'tool-input-start',
      'tool-input-available',
      'tool-output-available',
      'finish',
    ])
    expect(events[0]).toEqual({ type: 'start', messageMetadata: { runId, toolCallId, traceId: response.headers.get('x-trace-id') } })
    expect(events[1]).toEqual({ type: 'tool-input-start', toolCallId, toolName: 'weather-tool' })
    const deltas = events.filter((event) => event.type === 'tool-input-delta')
    expect(deltas.map((event) => event.inputTextDelta).join('')).toBe('{"location":"Paris"}')
    expect(events.find((event) => event.type === 'tool-input-available')).toEqual({ type: 'tool-input-available', toolCallId, toolName: 'weather-tool', input: { location: 'Paris' } })
    expect(events.find((event) => event.type === 'tool-output-available')).toEqual({
      type: 'tool-output-available',
      toolCallId,
      output: { location: 'Paris', temperatureCelsius: 21, conditions: 'sunny' },
    })
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
  })

  it('streams observe logs and spans as data-tool-log / data-tool-span', async () => {
    const { events } = await readSse(await callTool('audited-search', { query: 'mcp' }, { sse: true }))
    const log = events.find((event) => event.type === 'data-tool-log')
    expect(log).toMatchObject({ data: { level: 'info', message: 'searching', data: { query: 'mcp' }, time: expect.any(String) } })
    const spans = events.filter((event): event is Extract<ToolEvent, { type: 'data-tool-span' }> => event.type === 'data-tool-span')
    expect(spans.map((span) => [span.data.name, span.data.phase])).toEqual([
      ['rank', 'start'],
      ['rank', 'end'],
    ])
    expect(spans[1]!.data).toMatchObject({ spanId: spans[0]!.data.spanId, status: 'ok', durationMs: expect.any(Number) })
  })

  it('closes after tool-approval-request for a tool that needs approval', async () => {
    const { events, done } = await readSse(await callTool('delete-file', { path: '/x' }, { sse: true }))
    expect(done).toBe(true)
    expect(typesOf(events).slice(-2)).toEqual(['tool-approval-request', 'finish'])
    expect(typesOf(events)).not.toContain('tool-output-available')
  })

  it('closes after data-tool-suspended for a tool that suspends', async () => {
    const response = await callTool('book-flight', { from: 'LIS', to: 'OSL' }, { sse: true })
    const { events } = await readSse(response)
    expect(typesOf(events).slice(-2)).toEqual(['data-tool-suspended', 'finish'])
    expect(events.at(-2)).toMatchObject({ data: { runId: response.headers.get('x-run-id'), suspendPayload: { seats: ['12A', '12B', '14C'] }, resumeSchema: { type: 'object' } } })
  })
})

describe('views', () => {
  const full = { id: 'cus_acme_42', name: 'Ada Lovelace', email: 'ada@example.com', plan: 'pro', internalNotes: 'VIP, refund approved 2026-10-01' }

  it('display (the default) passes payloads through transform.display and drops raw deltas', async () => {
    const { events } = await readSse(await callTool('lookup-customer', { email: 'ada@example.com' }, { sse: true, headers: tenant }))
    expect(typesOf(events)).toEqual(['start', 'tool-input-start', 'tool-input-available', 'tool-output-available', 'finish'])
    expect(events.find((event) => event.type === 'tool-input-available')).toMatchObject({ input: { email: 'a***@example.com' } })
    expect(events.find((event) => event.type === 'tool-output-available')).toMatchObject({ output: { name: 'Ada Lovelace', plan: 'pro' } })
    const text = JSON.stringify(events)
    expect(text).not.toContain('ada@example.com')
    expect(text).not.toContain('VIP')
  })

  it('?view=display is the same as no view', async () => {
    const { events } = await readSse(await callTool('lookup-customer', { email: 'ada@example.com' }, { sse: true, headers: tenant, query: '?view=display' }))
    expect(JSON.stringify(events)).not.toContain('internalNotes')
  })

  it('raw carries untransformed payloads and data-tool-model-output', async () => {
    const { events } = await readSse(await callTool('lookup-customer', { email: 'ada@example.com' }, { sse: true, headers: tenant, query: '?view=raw' }))
    expect(typesOf(events)).toEqual([
      'start',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'data-tool-model-output',
      'finish',
    ])
    expect(events.find((event) => event.type === 'tool-input-available')).toMatchObject({ input: { email: 'ada@example.com' } })
    expect(events.find((event) => event.type === 'tool-output-available')).toMatchObject({ output: full })
    const toolCallId = events[1]!.type === 'tool-input-start' ? events[1]!.toolCallId : ''
    expect(events.find((event) => event.type === 'data-tool-model-output')).toEqual({
      type: 'data-tool-model-output',
      data: { toolCallId, modelOutput: { type: 'json', value: full } },
    })
  })

  it('transcript applies transform.transcript', async () => {
    const { events } = await readSse(await callTool('lookup-customer', { email: 'ada@example.com' }, { sse: true, headers: tenant, query: '?view=transcript' }))
    expect(events.find((event) => event.type === 'tool-output-available')).toMatchObject({ output: { id: 'cus_acme_42', plan: 'pro' } })
    expect(typesOf(events)).not.toContain('data-tool-model-output')
    expect(JSON.stringify(events)).not.toContain('Ada Lovelace')
  })

  it('display without a transform shows payloads as they are, without data-tool-model-output', async () => {
    const { events } = await readSse(await callTool('chart-tool', { quarter: 'Q1' }, { sse: true }))
    expect(typesOf(events)).not.toContain('data-tool-model-output')
    expect(events.find((event) => event.type === 'tool-output-available')).toMatchObject({ output: { quarter: 'Q1', total: 1300 } })
  })

  it('JSON answers carry the raw output whatever the view', async () => {
    const response = await callTool('lookup-customer', { email: 'ada@example.com' }, { headers: tenant, query: '?view=display' })
    expect(await response.json()).toMatchObject({ output: full, modelOutput: { type: 'json', value: full } })
  })
})

describe('keep-alive', () => {
  it('sends `: keep-alive` every 15 s while no event goes out', async () => {
    vi.useFakeTimers()
    try {
      let release!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      async function* events(): AsyncGenerator<SequencedEvent> {
        yield { seq: 1, event: { type: 'start', messageMetadata: { runId: 'r', toolCallId: 't' } } }
        await gate
        yield { seq: 2, event: { type: 'finish', finishReason: 'stop' } }
      }
      const response = sseResponse(events(), async (event) => event)
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      expect((await reader.read()).value).toBe(`id: 1\ndata: {"type":"start","messageMetadata":{"runId":"r","toolCallId":"t"}}\n\n`)
      await vi.advanceTimersByTimeAsync(15_000)
      expect((await reader.read()).value).toBe(': keep-alive\n\n')
      await vi.advanceTimersByTimeAsync(15_000)
      expect((await reader.read()).value).toBe(': keep-alive\n\n')
      release()
      expect((await reader.read()).value).toBe('id: 2\ndata: {"type":"finish","finishReason":"stop"}\n\n')
      expect((await reader.read()).value).toBe('data: [DONE]\n\n')
      expect((await reader.read()).done).toBe(true)
      // Stopped with the stream: no keep-alive after [DONE].
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
