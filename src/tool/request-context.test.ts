import { describe, expect, it } from 'vitest'
import { RequestContext } from './request-context.ts'

describe('RequestContext', () => {
  it('get, set, has, delete', () => {
    const context = new RequestContext<{ userId: string; locale?: string }>({ userId: 'u_1' })
    expect(context.get('userId')).toBe('u_1')
    expect(context.has('userId')).toBe(true)
    expect(context.has('locale')).toBe(false)
    expect(context.get('locale')).toBeUndefined()
    context.set('locale', 'pt-PT')
    expect(context.get('locale')).toBe('pt-PT')
    expect(context.delete('locale')).toBe(true)
    expect(context.delete('locale')).toBe(false)
    expect(context.has('locale')).toBe(false)
  })

  it('entries, keys, values, forEach and size; like Mastra\'s, the context itself is not iterable', () => {
    const context = new RequestContext({ a: 1, b: 'two' })
    expect([...context.entries()]).toEqual([['a', 1], ['b', 'two']])
    expect([...context.keys()]).toEqual(['a', 'b'])
    expect([...context.values()]).toEqual([1, 'two'])
    // Mastra's RequestContext has no Symbol.iterator, and vitest compares iterables by constructor:
    // an iterable context would fail Mastra's own `objectContaining({ requestContext })` assertions.
    expect(Symbol.iterator in context).toBe(false)
    const seen: [string, unknown][] = []
    context.forEach((value, key) => seen.push([key, value]))
    expect(seen).toEqual([['a', 1], ['b', 'two']])
    expect(context.size()).toBe(2)
  })

  it('toJSON gives a plain object, which JSON.stringify writes', () => {
    const context = new RequestContext({ tenantId: 't_9', flags: ['beta'] })
    expect(context.toJSON()).toEqual({ tenantId: 't_9', flags: ['beta'] })
    expect(JSON.stringify(context)).toBe('{"tenantId":"t_9","flags":["beta"]}')
    expect(JSON.stringify(new RequestContext())).toBe('{}')
  })

  it('clear, all, and the raw accessors for keys the Values type does not declare', () => {
    const context = new RequestContext<{ userId: string }>({ userId: 'u_1' })
    context.setRaw('mastra__resourceId', 'r_1')
    expect(context.getRaw('mastra__resourceId')).toBe('r_1')
    expect(context.hasRaw('mastra__resourceId')).toBe(true)
    const all = context.all
    expect(all).toEqual({ userId: 'u_1', mastra__resourceId: 'r_1' })
    all.userId = 'changed'
    expect(context.get('userId')).toBe('u_1')
    expect(context.deleteRaw('mastra__resourceId')).toBe(true)
    expect(context.hasRaw('mastra__resourceId')).toBe(false)
    context.clear()
    expect(context.size()).toBe(0)
  })

  it('toJSON leaves out what JSON cannot hold: functions, symbols, bigints, cycles', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const context = new RequestContext({ ok: 1, none: null, fn: () => 1, sym: Symbol('s'), big: 1n, cyclic, date: new Date(0) })
    expect(context.toJSON()).toEqual({ ok: 1, none: null, date: new Date(0) })
    expect(JSON.parse(JSON.stringify(context))).toEqual({ ok: 1, none: null, date: '1970-01-01T00:00:00.000Z' })
  })

  it('accepts entries as well as an object', () => {
    const context = new RequestContext([['k', 'v']])
    expect(context.get('k' as never)).toBe('v')
  })

  it('keeps its values private (no field to read or overwrite)', () => {
    const context = new RequestContext({ secret: 's' })
    expect(Object.keys(context)).toEqual([])
    expect({ ...context }).toEqual({})
  })

  it('from() takes a RequestContext as it is, a plain object or nothing', () => {
    const existing = new RequestContext({ a: 1 })
    expect(RequestContext.from(existing)).toBe(existing)
    const fromObject = RequestContext.from({ b: 2 })
    expect(fromObject).toBeInstanceOf(RequestContext)
    expect(fromObject.toJSON()).toEqual({ b: 2 })
    expect(RequestContext.from(undefined).size()).toBe(0)
    expect(RequestContext.from(null).size()).toBe(0)
  })
})
