import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { isToolDataEvent, type ToolDataEvent, type ToolEvent } from '../protocol/tool-event.ts'
import type { ValidationError } from '../schema/format-validation-errors.ts'
import { createTool } from '../runtime/create-tool.ts'
import type { InferToolOutput } from './tool-types.ts'
import type { ToolCustomChunk, ToolStream } from './tool-execution-context.ts'

type Draft = { text: string; done: boolean }
const draftSchema = z.object({ text: z.string(), done: z.boolean() })

describe('SPEC §8 types', () => {
  it('an async generator execute: its yields are typed by outputSchema, and so is the tool’s output', () => {
    const drafts = createTool({
      id: 'drafts',
      description: 'x',
      inputSchema: z.object({ topic: z.string() }),
      outputSchema: draftSchema,
      async *execute({ topic }) {
        expectTypeOf(topic).toEqualTypeOf<string>()
        yield { text: topic, done: false }
        yield { text: topic, done: true }
      },
    })
    expectTypeOf<InferToolOutput<typeof drafts>>().toEqualTypeOf<Draft>()
    expectTypeOf(drafts.execute).returns.toEqualTypeOf<Promise<Draft | ValidationError | undefined>>()

    createTool({
      id: 'wrong-yield',
      description: 'x',
      outputSchema: draftSchema,
      // @ts-expect-error a yield must match outputSchema (done is missing)
      async *execute() {
        yield { text: 'no done' }
      },
    })
  })

  it('without outputSchema the output type is what the generator yields', () => {
    const counter = createTool({
      id: 'counter',
      description: 'x',
      async *execute() {
        yield { count: 1 }
      },
    })
    expectTypeOf<InferToolOutput<typeof counter>>().toEqualTypeOf<{ count: number }>()
  })

  it('context.writer is always there; custom takes a data-<name> type only', () => {
    createTool({
      id: 'writer',
      description: 'x',
      execute: async (_input, { writer }) => {
        expectTypeOf(writer).toEqualTypeOf<ToolStream>()
        expectTypeOf(writer).toMatchTypeOf<WritableStream<unknown>>()
        expectTypeOf(writer.write).returns.toEqualTypeOf<Promise<void>>()
        await writer.custom({ type: 'data-progress', data: { percent: 5 }, id: 'p', transient: true })
        // @ts-expect-error a custom chunk's type must start with data-
        await writer.custom({ type: 'progress', data: 1 })
        // @ts-expect-error a custom chunk carries data
        await writer.custom({ type: 'data-progress' })
        return 'ok'
      },
    })
    expectTypeOf<ToolCustomChunk['type']>().toEqualTypeOf<`data-${string}`>()
  })

  it('a direct call may pass its own writer', () => {
    const tool = createTool({ id: 'direct', description: 'x', execute: async () => 'ok' })
    void tool.execute({}, { writer: { write: async () => {}, custom: async () => {} } })
    // @ts-expect-error a writer needs write and custom
    void tool.execute({}, { writer: { write: async () => {} } })
  })

  it('events: narrowing on toolroute’s own data-* types still works; isToolDataEvent picks custom chunks', () => {
    const event = {} as ToolEvent
    if (event.type === 'data-tool-suspended') expectTypeOf(event.data.suspendPayload).toEqualTypeOf<unknown>()
    if (event.type === 'data-tool-output') expectTypeOf(event.data).toEqualTypeOf<{ toolCallId: string; output: unknown }>()
    if (event.type === 'tool-output-available') expectTypeOf(event.preliminary).toEqualTypeOf<boolean | undefined>()
    if (isToolDataEvent(event, 'data-progress')) {
      expectTypeOf(event).toEqualTypeOf<ToolDataEvent>()
      expectTypeOf(event.transient).toEqualTypeOf<boolean | undefined>()
    }
  })
})
