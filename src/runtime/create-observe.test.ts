import { describe, expect, it } from 'vitest'
import type { ToolEvent } from '../protocol/tool-event.ts'
import { createObserve } from './create-observe.ts'

function collect() {
  const events: ToolEvent[] = []
  return { events, observe: createObserve((event) => events.push(event)) }
}

describe('createObserve', () => {
  it('log emits data-tool-log with level, message, data and an ISO time', () => {
    const { events, observe } = collect()
    observe.log('info', 'looked up', { hits: 3 })
    observe.log('debug', 'plain')
    expect(events).toEqual([
      { type: 'data-tool-log', data: { level: 'info', message: 'looked up', data: { hits: 3 }, time: expect.any(String) } },
      { type: 'data-tool-log', data: { level: 'debug', message: 'plain', time: expect.any(String) } },
    ])
    const time = (events[0] as Extract<ToolEvent, { type: 'data-tool-log' }>).data.time
    expect(new Date(time).toISOString()).toBe(time)
  })

  it('span emits start and end around the work and returns its result', async () => {
    const { events, observe } = collect()
    const result = await observe.span('fetch', async () => 42, { url: 'https://example.com' })
    expect(result).toBe(42)
    expect(events).toEqual([
      { type: 'data-tool-span', data: { spanId: expect.any(String), name: 'fetch', phase: 'start', attributes: { url: 'https://example.com' } } },
      { type: 'data-tool-span', data: { spanId: expect.any(String), name: 'fetch', phase: 'end', status: 'ok', durationMs: expect.any(Number) } },
    ])
    const [start, end] = events as Extract<ToolEvent, { type: 'data-tool-span' }>[]
    expect(end!.data.spanId).toBe(start!.data.spanId)
    expect(end!.data.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('nested spans name their parent; siblings do not', async () => {
    const { events, observe } = collect()
    await observe.span('outer', async () => {
      await observe.span('inner', () => 'x')
    })
    await observe.span('after', () => 'y')
    const spans = events.map((event) => (event as Extract<ToolEvent, { type: 'data-tool-span' }>).data)
    const outer = spans.find((span) => span.name === 'outer')!
    const inner = spans.filter((span) => span.name === 'inner')
    expect(inner.map((span) => span.parentSpanId)).toEqual([outer.spanId, outer.spanId])
    expect(spans.filter((span) => span.name === 'after').every((span) => span.parentSpanId === undefined)).toBe(true)
    expect(outer.parentSpanId).toBeUndefined()
  })

  it('a failing span ends with status error and rethrows', async () => {
    const { events, observe } = collect()
    await expect(
      observe.span('boom', () => {
        throw new Error('bad')
      }),
    ).rejects.toThrow('bad')
    expect(events.at(-1)).toMatchObject({ type: 'data-tool-span', data: { name: 'boom', phase: 'end', status: 'error' } })
  })
})
