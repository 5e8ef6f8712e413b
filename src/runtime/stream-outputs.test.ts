// SPEC §8's two ways of streaming output, `context.writer` and an async generator `execute`, through the
// executor and the event projector. One file over ~300 lines on purpose: the two share their tools and
// must agree event for event.
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { isToolDataEvent, type ToolEvent } from '../protocol/tool-event.ts'
import { createEventProjector } from '../runs/create-event-projector.ts'
import { createTool } from './create-tool.ts'
import type { ToolStream } from '../tool/tool-execution-context.ts'
import { CallAbort } from './call-abort.ts'
import { collectingScope } from '../../test/shared/collecting-scope.ts'
import { executeToolCall } from './execute-tool-call.ts'

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('context.writer (SPEC §8)', () => {
  it('write emits data-tool-output; custom emits the chunk as written, between the other events', async () => {
    const tool = createTool({
      id: 'indexer',
      description: 'x',
      outputSchema: z.object({ files: z.number() }),
      execute: async (_input, { writer }) => {
        await writer.write({ stage: 'scan', done: 1 })
        await writer.custom({ type: 'data-progress', data: { percent: 50 }, id: 'p' })
        return { files: 2 }
      },
    })
    const { scope, events } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'completed', output: { files: 2 } })
    expect(events.slice(0, 3)).toEqual([
      { type: 'data-tool-output', data: { toolCallId: 'call_1', output: { stage: 'scan', done: 1 } } },
      { type: 'data-progress', data: { percent: 50 }, id: 'p' },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { files: 2 } },
    ])
  })

  it('a transient chunk goes to live readers only (emitTransient), never to the stored log', async () => {
    const live: ToolEvent[] = []
    const tool = createTool({
      id: 'ticker',
      description: 'x',
      execute: async (_input, { writer }) => {
        await writer.custom({ type: 'data-tick', data: 1, transient: true })
        await writer.custom({ type: 'data-tick', data: 2, transient: false })
        return 'ok'
      },
    })
    const { scope, types, events } = collectingScope(tool, { emitTransient: (event) => void live.push(event) })
    await executeToolCall(scope, {})
    expect(live).toEqual([{ type: 'data-tick', data: 1, transient: true }])
    expect(types()).toEqual(['data-tick', 'tool-output-available', 'data-tool-model-output'])
    expect(events[0]).toEqual({ type: 'data-tick', data: 2, transient: false })
    // Without a live channel (a surface nobody reads live) a transient chunk is simply dropped.
    const quiet = collectingScope(tool)
    await executeToolCall(quiet.scope, {})
    expect(quiet.events.filter((event) => isToolDataEvent(event, 'data-tick'))).toHaveLength(1)
  })

  it('keeps only the data part fields, so the chunk passes the AI SDK schema', async () => {
    const tool = createTool({
      id: 'extra',
      description: 'x',
      execute: async (_input, { writer }) => {
        await writer.custom({ type: 'data-note', data: 'hi', secret: 'x' } as never)
        return 'ok'
      },
    })
    const { scope, events } = collectingScope(tool)
    await executeToolCall(scope, {})
    expect(events[0]).toEqual({ type: 'data-note', data: 'hi' })
  })

  it.each([
    ['a type without data-', { type: 'progress', data: 1 }, /must start with "data-"/],
    ['no type', { data: 1 }, /must start with "data-"/],
    ["one of toolroute's own events", { type: 'data-tool-suspended', data: {} }, /toolroute's own namespace/],
    ['a name in toolroute’s namespace', { type: 'data-tool-progress', data: {} }, /toolroute's own namespace/],
    ['an id that is not a string', { type: 'data-x', data: 1, id: 7 }, /id must be a string/],
    ['transient that is not a boolean', { type: 'data-x', data: 1, transient: 'yes' }, /transient must be a boolean/],
  ])('custom with %s rejects with a TypeError the tool can catch; nothing is emitted', async (_name, chunk, message) => {
    let caught: unknown
    const tool = createTool({
      id: 'careful',
      description: 'x',
      execute: async (_input, { writer }) => {
        try {
          await writer.custom(chunk as never)
        } catch (error) {
          caught = error
        }
        return 'ok'
      },
    })
    const { scope, types } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'completed' })
    expect(caught).toBeInstanceOf(TypeError)
    expect(String((caught as Error).message)).toMatch(message)
    expect(types()).toEqual(['tool-output-available', 'data-tool-model-output'])
  })

  it('an uncaught bad custom type fails the call as EXECUTION_FAILED naming the problem', async () => {
    const tool = createTool({ id: 'careless', description: 'x', execute: async (_input, { writer }) => void (await writer.custom({ type: 'progress' } as never)) })
    const { scope, events } = collectingScope(tool)
    const outcome = await executeToolCall(scope, {})
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: expect.stringContaining('must start with "data-"') } })
    expect(events).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: expect.stringContaining('data-') }])
  })

  it('writing after the call ended is harmless: nothing is emitted, nothing throws', async () => {
    let kept: ToolStream | undefined
    const tool = createTool({
      id: 'late',
      description: 'x',
      execute: async (_input, { writer }) => {
        kept = writer
        return 'ok'
      },
    })
    const { scope, types } = collectingScope(tool, { emitTransient: () => expect.fail('transient after the end') })
    await executeToolCall(scope, {})
    const before = types()
    await expect(kept!.write('late')).resolves.toBeUndefined()
    await expect(kept!.custom({ type: 'data-late', data: 1 })).resolves.toBeUndefined()
    await expect(kept!.custom({ type: 'data-late', data: 1, transient: true })).resolves.toBeUndefined()
    expect(types()).toEqual(before)
  })

  it('is a WritableStream: a stream piped into it is written chunk by chunk', async () => {
    const tool = createTool({
      id: 'piper',
      description: 'x',
      execute: async (_input, { writer }) => {
        expect(writer).toBeInstanceOf(WritableStream)
        const source = new ReadableStream({
          start(controller) {
            controller.enqueue('a')
            controller.enqueue('b')
            controller.close()
          },
        })
        await source.pipeTo(writer)
        return 'ok'
      },
    })
    const { scope, events } = collectingScope(tool)
    await executeToolCall(scope, {})
    expect(events.filter((event) => event.type === 'data-tool-output').map((event) => event.data.output)).toEqual(['a', 'b'])
  })

  it('views pass written values through unchanged, even where transform.display hides outputs', async () => {
    const tool = createTool({
      id: 'hidden',
      description: 'x',
      transform: { display: { output: () => ({ hidden: true }) }, transcript: { output: () => ({ hidden: true }) } },
      execute: async () => 'secret',
    })
    const written: ToolEvent[] = [
      { type: 'data-tool-output', data: { toolCallId: 'c', output: { step: 1 } } },
      { type: 'data-progress', data: { percent: 10 } } as never,
    ]
    for (const view of ['display', 'transcript', 'raw'] as const) {
      const project = createEventProjector(tool, view)
      for (const event of written) expect(await project(event)).toEqual(event)
    }
  })
})

describe('an async generator execute (SPEC §8)', () => {
  const schema = z.object({ text: z.string(), final: z.boolean() })

  it('each yield is a preliminary tool-output-available; the last is the final output', async () => {
    const onOutput = vi.fn()
    const tool = createTool({
      id: 'drafts',
      description: 'x',
      outputSchema: schema,
      onOutput,
      async *execute() {
        yield { text: 'D', final: false }
        yield { text: 'Dr', final: false }
        yield { text: 'Draft', final: true }
      },
    })
    const { scope, events, types } = collectingScope(tool)
    const outcome = await executeToolCall(scope, {})
    expect(outcome).toEqual({ status: 'completed', output: { text: 'Draft', final: true }, modelOutput: { type: 'json', value: { text: 'Draft', final: true } } })
    expect(types()).toEqual(['tool-output-available', 'tool-output-available', 'tool-output-available', 'tool-output-available', 'data-tool-model-output'])
    expect(events.slice(0, 4)).toEqual([
      { type: 'tool-output-available', toolCallId: 'call_1', output: { text: 'D', final: false }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { text: 'Dr', final: false }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { text: 'Draft', final: true }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { text: 'Draft', final: true } },
    ])
    expect(onOutput).toHaveBeenCalledTimes(1)
    expect(onOutput.mock.calls[0]![0]).toMatchObject({ output: { text: 'Draft', final: true } })
  })

  it("a generator's return value is ignored, as in the AI SDK: the last yield is the output", async () => {
    const tool = createTool({
      id: 'returns',
      description: 'x',
      async *execute() {
        yield 'first'
        yield 'last'
        return 'returned' as never
      },
    })
    const { scope } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toMatchObject({ status: 'completed', output: 'last' })
  })

  it('preliminary outputs pass through transform.display.output, as the final one does', async () => {
    const tool = createTool({
      id: 'masked',
      description: 'x',
      transform: { display: { output: ({ output }) => ({ length: String(output).length }) } },
      async *execute() {
        yield 'ab'
        yield 'abcd'
      },
    })
    const { scope, events } = collectingScope(tool)
    await executeToolCall(scope, {})
    const project = createEventProjector(tool, 'display')
    const shown = await Promise.all(events.map(project))
    expect(shown.filter(Boolean)).toEqual([
      { type: 'tool-output-available', toolCallId: 'call_1', output: { length: 2 }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { length: 4 }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'call_1', output: { length: 4 } },
    ])
  })

  it('a generator that throws midway: its earlier preliminary outputs stay, then tool-output-error, EXECUTION_FAILED', async () => {
    const tool = createTool({
      id: 'flaky',
      description: 'x',
      async *execute() {
        yield 'one'
        throw new Error('model went away')
      },
    })
    const { scope, events } = collectingScope(tool)
    const outcome = await executeToolCall(scope, {})
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'model went away' } })
    expect(events).toEqual([
      { type: 'tool-output-available', toolCallId: 'call_1', output: 'one', preliminary: true },
      { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'model went away' },
    ])
  })

  it('a final value against outputSchema: OUTPUT_VALIDATION_FAILED, no final output, no onOutput', async () => {
    const onOutput = vi.fn()
    const tool = createTool({
      id: 'wrong-final',
      description: 'x',
      outputSchema: schema,
      onOutput,
      async *execute() {
        yield { text: 'ok', final: false }
        yield { text: 3, final: true } as never
      },
    })
    const { scope, events } = collectingScope(tool)
    const outcome = await executeToolCall(scope, {})
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'OUTPUT_VALIDATION_FAILED', issues: [{ path: ['text'] }] } })
    expect(events.map((event) => [event.type, 'preliminary' in event])).toEqual([
      ['tool-output-available', true],
      ['tool-output-available', true],
      ['tool-output-error', false],
    ])
    expect(onOutput).not.toHaveBeenCalled()
  })

  it('an abort stops the generator (its finally runs) and drops what it yields later', async () => {
    const abort = new CallAbort()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let cleanedUp = false
    const tool = createTool({
      id: 'long',
      description: 'x',
      async *execute() {
        try {
          yield 'started'
          await gate
          yield 'after abort'
        } finally {
          cleanedUp = true
        }
      },
    })
    const { scope, events } = collectingScope(tool, { signal: undefined, raceAbort: (work) => abort.race(work) })
    const outcome = executeToolCall(scope, {})
    await tick()
    abort.abort(new Error('caller left'))
    expect(await outcome).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message: 'caller left' } })
    release()
    await tick()
    expect(cleanedUp).toBe(true)
    expect(events).toEqual([
      { type: 'tool-output-available', toolCallId: 'call_1', output: 'started', preliminary: true },
      { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'caller left' },
    ])
  })

  it('a generator that suspends: the suspension wins, its yields were preliminary only', async () => {
    const tool = createTool({
      id: 'asks',
      description: 'x',
      suspendSchema: z.object({ question: z.string() }),
      async *execute(_input, { suspend }) {
        yield 'thinking'
        await suspend({ question: 'Which?' })
      },
    })
    const { scope, types } = collectingScope(tool)
    expect(await executeToolCall(scope, {})).toEqual({ status: 'suspended', suspendPayload: { question: 'Which?' } })
    expect(types()).toEqual(['tool-output-available', 'data-tool-suspended'])
  })
})

describe('isToolDataEvent', () => {
  it("picks chunks a tool wrote, never toolroute's own data-tool-* events", () => {
    const custom = { type: 'data-progress', data: 1 } as never as ToolEvent
    const own: ToolEvent = { type: 'data-tool-output', data: { toolCallId: 'c', output: 1 } }
    expect(isToolDataEvent(custom)).toBe(true)
    expect(isToolDataEvent(custom, 'data-progress')).toBe(true)
    expect(isToolDataEvent(custom, 'data-other')).toBe(false)
    expect(isToolDataEvent(own)).toBe(false)
    expect(isToolDataEvent(own, 'data-tool-output')).toBe(false)
    expect(isToolDataEvent({ type: 'finish', finishReason: 'stop' })).toBe(false)
  })
})
