import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTool } from './create-tool.ts'

// SPEC §8 on a direct `tool.execute()`: no server, no stream.
describe('direct calls: writer and async generator execute', () => {
  const drafts = createTool({
    id: 'drafts',
    description: 'x',
    inputSchema: z.object({ topic: z.string() }),
    outputSchema: z.object({ text: z.string() }),
    async *execute({ topic }) {
      yield { text: topic.slice(0, 1) }
      yield { text: topic }
    },
  })

  it('returns the last value a generator yielded, validated against outputSchema', async () => {
    expect(await drafts.execute({ topic: 'tides' })).toEqual({ text: 'tides' })
  })

  it('a final value against outputSchema comes back as the validation error; input is validated first', async () => {
    const bad = createTool({
      id: 'bad-final',
      description: 'x',
      outputSchema: z.object({ text: z.string() }),
      async *execute() {
        yield { text: 'fine' }
        yield { text: 1 } as never
      },
    })
    expect(await bad.execute({})).toMatchObject({ error: true, message: expect.stringContaining('bad-final'), validationErrors: expect.anything() })
    expect(await drafts.execute({ topic: 3 } as never)).toMatchObject({ error: true })
  })

  it('a generator that throws midway throws to the caller, as a plain execute would', async () => {
    const flaky = createTool({
      id: 'flaky',
      description: 'x',
      async *execute() {
        yield 1
        throw new Error('gone')
      },
    })
    await expect(flaky.execute({})).rejects.toThrow('gone')
  })

  it('writer is always there; without a writer of the caller’s it goes nowhere (Mastra passes none)', async () => {
    const tool = createTool({
      id: 'writes',
      description: 'x',
      execute: async (_input, { writer }) => {
        await writer.write({ step: 1 })
        await writer.custom({ type: 'data-progress', data: 50, transient: true })
        await expect(writer.custom({ type: 'progress' } as never)).rejects.toBeInstanceOf(TypeError)
        return 'ok'
      },
    })
    expect(await tool.execute({})).toBe('ok')
  })

  it('forwards to the writer the caller passed (a Mastra agent’s ToolStream)', async () => {
    const writer = { write: vi.fn(async () => {}), custom: vi.fn(async () => {}) }
    const tool = createTool({
      id: 'forwards',
      description: 'x',
      execute: async (_input, context) => {
        await context.writer.write('w')
        await context.writer.custom({ type: 'data-x', data: 1, id: 'a' })
        return 'ok'
      },
    })
    expect(await tool.execute({}, { writer })).toBe('ok')
    expect(writer.write).toHaveBeenCalledWith('w')
    expect(writer.custom).toHaveBeenCalledWith({ type: 'data-x', data: 1, id: 'a' })
  })
})
