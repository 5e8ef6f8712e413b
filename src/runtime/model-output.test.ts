import { describe, expect, it } from 'vitest'
import { isToolModelOutput, toModelOutputOf } from './model-output.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'

const everyPart: ToolModelOutput = {
  type: 'content',
  value: [
    { type: 'text', text: 'Forecast' },
    { type: 'image-url', url: 'https://example.com/chart.png' },
    { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
    { type: 'file-url', url: 'https://example.com/report.pdf', mediaType: 'application/pdf' },
    { type: 'file-data', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'report.pdf' },
    { type: 'file-id', fileId: 'file_123' },
    { type: 'image-file-id', fileId: { openai: 'file_456' } },
    { type: 'custom', providerOptions: { anthropic: { type: 'search_result' } } },
  ],
}

describe('toModelOutputOf', () => {
  it('without toModelOutput: the output as json (null for nothing)', async () => {
    expect(await toModelOutputOf(undefined, { a: 1 })).toEqual({ type: 'json', value: { a: 1 } })
    expect(await toModelOutputOf(undefined, undefined)).toEqual({ type: 'json', value: null })
  })

  it('a text output, and a string as shorthand for one', async () => {
    expect(await toModelOutputOf(() => ({ type: 'text', value: '21°C' }), {})).toEqual({ type: 'text', value: '21°C' })
    expect(await toModelOutputOf(() => '21°C', {})).toEqual({ type: 'text', value: '21°C' })
  })

  it('a json output, and an async toModelOutput', async () => {
    expect(await toModelOutputOf(async (output: { a: number }) => ({ type: 'json', value: { doubled: output.a * 2 } }), { a: 2 })).toEqual({
      type: 'json',
      value: { doubled: 4 },
    })
  })

  it('content with every part type (text, image-url, image-data, file-url, file-data, file-id, image-file-id, custom)', async () => {
    expect(await toModelOutputOf(() => everyPart, {})).toEqual(everyPart)
    expect(isToolModelOutput(everyPart)).toBe(true)
  })

  it('passes the output to toModelOutput', async () => {
    const output = { location: 'Porto' }
    let received: unknown
    await toModelOutputOf((value) => ((received = value), 'ok'), output)
    expect(received).toBe(output)
  })

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['an unknown type', { type: 'markdown', value: '# hi' }],
    ['text with a non-string value', { type: 'text', value: 42 }],
    ['content that is not an array', { type: 'content', value: 'x' }],
    ['content with an unknown part', { type: 'content', value: [{ type: 'video', url: 'x' }] }],
    ['content with a null part', { type: 'content', value: [null] }],
  ])('rejects a return that is %s', async (_case, returned) => {
    await expect(toModelOutputOf(() => returned, {})).rejects.toThrow('toModelOutput must return { type: "text" | "json" | "content", value }')
  })

  it('lets a throwing toModelOutput throw', async () => {
    await expect(
      toModelOutputOf(() => {
        throw new Error('no chart')
      }, {}),
    ).rejects.toThrow('no chart')
  })
})

describe('isToolModelOutput', () => {
  it('accepts the AI SDK error and denial outputs too', () => {
    expect(isToolModelOutput({ type: 'error-text', value: 'x' })).toBe(true)
    expect(isToolModelOutput({ type: 'error-json', value: { a: 1 } })).toBe(true)
    expect(isToolModelOutput({ type: 'execution-denied', reason: 'no' })).toBe(true)
    expect(isToolModelOutput({ type: 'error-text', value: 1 })).toBe(false)
  })
})
