import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool.ts'
import { receiveInput, type ReceivedInput } from './receive-input.ts'
import type { Checked } from './validate-call.ts'
import { collectingScope } from '../../test/shared/collecting-scope.ts'

async function* chunksOf(...parts: (string | Uint8Array)[]) {
  for (const part of parts) yield part
}

function hookedTool() {
  const calls: string[] = []
  const tool = createTool({
    id: 'search',
    description: 'x',
    inputSchema: z.object({ q: z.string(), limit: z.number().optional() }),
    onInputStart: ({ toolCallId }) => void calls.push(`start:${toolCallId}`),
    onInputDelta: ({ inputTextDelta }) => void calls.push(`delta:${inputTextDelta}`),
    onInputAvailable: ({ input }) => void calls.push(`available:${JSON.stringify(input)}`),
    execute: async () => 'ok',
  })
  return { tool, calls }
}

describe('receiveInput', () => {
  it('a parsed input: tool-input-start then tool-input-available, with the hooks between', async () => {
    const { tool, calls } = hookedTool()
    const { scope, events } = collectingScope(tool)
    const received = await receiveInput(scope, { input: { q: 'cats', limit: null } })
    expect(received).toEqual({ ok: true, value: { raw: { q: 'cats', limit: null }, value: { q: 'cats' } } })
    expect(events).toEqual([
      { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'search' },
      { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'search', input: { q: 'cats', limit: null } },
    ])
    expect(calls).toEqual(['start:call_1', 'available:{"q":"cats"}'])
  })

  it('streamed chunks: one tool-input-delta and one onInputDelta per chunk, in order, then the parsed input', async () => {
    const { tool, calls } = hookedTool()
    const { scope, events } = collectingScope(tool)
    const encoder = new TextEncoder()
    const received = await receiveInput(scope, { chunks: chunksOf('{"q":', encoder.encode('"ca'), 'ts"}'), maxBytes: 1024 })
    expect(received).toMatchObject({ ok: true, value: { value: { q: 'cats' } } })
    expect(events).toEqual([
      { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'search' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"q":' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '"ca' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: 'ts"}' },
      { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'search', input: { q: 'cats' } },
    ])
    expect(calls).toEqual(['start:call_1', 'delta:{"q":', 'delta:"ca', 'delta:ts"}', 'available:{"q":"cats"}'])
  })

  it('decodes a UTF-8 character split across chunks (no broken delta)', async () => {
    const { tool } = hookedTool()
    const { scope, events } = collectingScope(tool)
    const bytes = new TextEncoder().encode('{"q":"café"}')
    const split = bytes.indexOf(0xc3) + 1
    await receiveInput(scope, { chunks: chunksOf(bytes.slice(0, split), bytes.slice(split)), maxBytes: 1024 })
    const deltas = events.filter((event) => event.type === 'tool-input-delta').map((event) => (event as { inputTextDelta: string }).inputTextDelta)
    expect(deltas.join('')).toBe('{"q":"café"}')
    expect(deltas.every((delta) => !delta.includes('\uFFFD'))).toBe(true)
  })

  it('invalid JSON: INVALID_JSON and tool-input-error carrying the text received', async () => {
    const { tool, calls } = hookedTool()
    const { scope, events } = collectingScope(tool)
    const received = await receiveInput(scope, { chunks: chunksOf('{"q":', 'oops'), maxBytes: 1024 })
    expect(received.ok).toBe(false)
    if (!received.ok) expect(received.error.code).toBe('INVALID_JSON')
    expect(events.at(-1)).toEqual({ type: 'tool-input-error', toolCallId: 'call_1', toolName: 'search', input: '{"q":oops', errorText: expect.stringMatching(/^Request body is not valid JSON/) })
    expect(calls.some((call) => call.startsWith('available'))).toBe(false)
  })

  it('a body over maxBytes: PAYLOAD_TOO_LARGE, and reading stops once 4 more limits are drained', async () => {
    const { tool } = hookedTool()
    const { scope, events } = collectingScope(tool)
    let pulled = 0
    async function* many() {
      for (;;) {
        pulled++
        yield '{"q":"aaaaaaaa'
      }
    }
    const received = await receiveInput(scope, { chunks: many(), maxBytes: 40 })
    expect(received.ok).toBe(false)
    if (!received.ok) {
      expect(received.error.code).toBe('PAYLOAD_TOO_LARGE')
      expect(received.error.message).toBe('Request body is larger than 40 bytes')
    }
    // 3 chunks reach the limit, then 12 more (168 bytes > 4 × 40) are read and dropped.
    expect(pulled).toBe(15)
    expect(events.at(-1)).toMatchObject({ type: 'tool-input-error', errorText: 'Request body is larger than 40 bytes' })
    expect(events.filter((event) => event.type === 'tool-input-delta')).toHaveLength(2)
  })

  it('a body over maxBytes that ends within the drain is read to its end, its error told before the rest is read', async () => {
    const { tool } = hookedTool()
    const { scope, events } = collectingScope(tool)
    let finished = false
    let errorBeforeRest = false
    async function* some() {
      yield '{"q":"' + 'a'.repeat(40)
      errorBeforeRest = events.some((event) => event.type === 'tool-input-error')
      yield 'b'.repeat(30)
      yield '"}'
      finished = true
    }
    const received = await receiveInput(scope, { chunks: some(), maxBytes: 40 })
    expect(received.ok).toBe(false)
    expect(finished).toBe(true)
    expect(errorBeforeRest).toBe(true)
    expect(events.filter((event) => event.type === 'tool-input-error')).toHaveLength(1)
  })

  it('an empty body is no input: {} for an object schema', async () => {
    const tool = createTool({ id: 'optional', description: 'x', inputSchema: z.object({ q: z.string().optional() }), execute: async () => 'ok' })
    const { scope, events } = collectingScope(tool)
    expect(await receiveInput(scope, { chunks: chunksOf('  '), maxBytes: 1024 })).toEqual({ ok: true, value: { raw: {}, value: {} } })
    expect(events.at(-1)).toEqual({ type: 'tool-input-available', toolCallId: 'call_1', toolName: 'optional', input: {} })
  })

  it('bad input: INPUT_VALIDATION_FAILED and tool-input-error with the input, onInputAvailable not called', async () => {
    const { tool, calls } = hookedTool()
    const { scope, events } = collectingScope(tool)
    const received = await receiveInput(scope, { input: { q: 7 } })
    expect(received.ok).toBe(false)
    if (!received.ok) {
      expect(received.error.code).toBe('INPUT_VALIDATION_FAILED')
      expect(received.error.issues).toEqual([{ path: ['q'], message: expect.any(String) }])
    }
    expect(events.at(-1)).toEqual({ type: 'tool-input-error', toolCallId: 'call_1', toolName: 'search', input: { q: 7 }, errorText: expect.stringMatching(/^Tool input validation failed for search/) })
    expect(calls).toEqual(['start:call_1'])
  })

  it('a throwing input hook becomes a data-tool-log warning; the input still arrives', async () => {
    const tool = createTool({
      id: 'fragile',
      description: 'x',
      onInputDelta: () => {
        throw new Error('delta hook broke')
      },
      execute: async () => 'ok',
    })
    const { scope, events, types } = collectingScope(tool)
    expect(await receiveInput(scope, { chunks: chunksOf('{}'), maxBytes: 1024 })).toMatchObject({ ok: true })
    expect(types()).toEqual(['tool-input-start', 'tool-input-delta', 'data-tool-log', 'tool-input-available'])
    expect(events[2]).toMatchObject({ data: { level: 'warn', message: 'onInputDelta hook failed: delta hook broke', data: { hook: 'onInputDelta' } } })
  })

  describe('without input hooks and with the input already here: the same events', () => {
    const plainTool = createTool({ id: 'search', description: 'x', inputSchema: z.object({ q: z.string() }), execute: async () => 'ok' })

    it('a body read whole: start, one delta, available', async () => {
      const { scope, events } = collectingScope(plainTool)
      const received = await receiveInput(scope, { text: '{"q":"cats"}' })
      expect(received).toEqual({ ok: true, value: { raw: { q: 'cats' }, value: { q: 'cats' } } })
      expect(events).toEqual([
        { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'search' },
        { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"q":"cats"}' },
        { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'search', input: { q: 'cats' } },
      ])
    })

    it('invalid JSON and bad input fail as with hooks', async () => {
      const { scope, events } = collectingScope(plainTool)
      expect(await receiveInput(scope, { text: '{"q":' })).toMatchObject({ ok: false, error: { code: 'INVALID_JSON' } })
      expect(events.at(-1)).toMatchObject({ type: 'tool-input-error', input: '{"q":' })
      const bad = collectingScope(plainTool)
      expect(await receiveInput(bad.scope, { input: { q: 7 } })).toMatchObject({ ok: false, error: { code: 'INPUT_VALIDATION_FAILED' } })
      expect(bad.events.at(-1)).toMatchObject({ type: 'tool-input-error', input: { q: 7 } })
    })

    it('a body read whole answers and emits as the same text streamed in one chunk, and with hooks', async () => {
      for (const text of ['', '{"q":"cats"}', '{"q":7}', '{"q":']) {
        const whole = collectingScope(plainTool)
        const streamed = collectingScope(plainTool)
        const hooked = hookedTool()
        const withHooks = collectingScope(hooked.tool)
        const one = await receiveInput(whole.scope, { text })
        const two = await receiveInput(streamed.scope, { chunks: chunksOf(text), maxBytes: 1024 })
        const three = await receiveInput(withHooks.scope, { text })
        const shown = (result: Checked<ReceivedInput>) => (result.ok ? result : { ok: false, error: result.error.toJSON() })
        expect(shown(one)).toEqual(shown(two))
        expect(whole.events).toEqual(streamed.events)
        expect(shown(three).ok).toBe(shown(one).ok)
        expect(withHooks.events.filter((event) => event.type === 'tool-input-delta')).toEqual(whole.events.filter((event) => event.type === 'tool-input-delta'))
        expect(hooked.calls.filter((call) => call.startsWith('delta:'))).toEqual(text === '' ? [] : [`delta:${text}`])
      }
    })

    it("reads the scope's observe only for a hook: a scope makes it on first read, and most calls have none", async () => {
      for (const [tool, reads] of [[plainTool, 0], [hookedTool().tool, 3]] as const) {
        const { scope } = collectingScope(tool)
        let observed = 0
        const observe = scope.observe
        Object.defineProperty(scope, 'observe', { get: () => (observed++, observe) })
        expect((await receiveInput(scope, { text: '{"q":"cats"}' })).ok).toBe(true)
        expect([tool.id, observed]).toEqual([tool.id, reads])
      }
    })

    it('is asynchronous whatever the source (one contract: await it)', () => {
      expect(receiveInput(collectingScope(plainTool).scope, { input: { q: 'x' } })).toBeInstanceOf(Promise)
      expect(receiveInput(collectingScope(hookedTool().tool).scope, { input: { q: 'x' } })).toBeInstanceOf(Promise)
      expect(receiveInput(collectingScope(plainTool).scope, { chunks: chunksOf('{"q":"x"}'), maxBytes: 1024 })).toBeInstanceOf(Promise)
    })
  })
})
