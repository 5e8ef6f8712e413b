import { describe, expect, it } from 'vitest'
import { maxJsonDepth } from '../protocol/json-depth.ts'
import { readBody } from './read-body.ts'

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request('http://x/', { method: 'POST', body, headers, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit)

/** A chunked body (no content-length), its chunks as given; `pulled` counts what was read of it. */
function chunked(...parts: string[]) {
  const state = { pulled: 0, cancelled: false }
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = parts[state.pulled++]
      if (part === undefined) controller.close()
      else controller.enqueue(encoder.encode(part))
    },
    cancel() {
      state.cancelled = true
    },
  })
  return { request: post(stream), state }
}

describe('readBody', () => {
  it('reads a body as bytes, text or JSON', async () => {
    const text = '{"q":"café"}'
    expect(await readBody(post(text), { maxBytes: 100, as: 'text' })).toEqual({ ok: true, body: text, text })
    expect(await readBody(post(text), { maxBytes: 100, as: 'json' })).toEqual({ ok: true, body: { q: 'café' }, text })
    const bytes = await readBody(post(text), { maxBytes: 100, as: 'bytes' })
    expect(bytes.ok && new TextDecoder().decode(bytes.body)).toBe(text)
  })

  it('an empty body is empty text and undefined JSON (the surface decides what none means)', async () => {
    expect(await readBody(post(null), { maxBytes: 10, as: 'json' })).toEqual({ ok: true, body: undefined, text: '' })
    expect(await readBody(post(''), { maxBytes: 10, as: 'text' })).toEqual({ ok: true, body: '', text: '' })
  })

  it('a body that declares more than maxBytes is refused unread', async () => {
    const request = post('x'.repeat(20), { 'content-length': '20' })
    expect(await readBody(request, { maxBytes: 10, as: 'text' })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 10 bytes' } })
    expect(request.bodyUsed).toBe(false)
  })

  it('a chunked body is counted as it arrives and cancelled once past maxBytes', async () => {
    const { request, state } = chunked('aaaa', 'bbbb', 'cccc', 'dddd', 'eeee')
    expect(await readBody(request, { maxBytes: 10, as: 'json' })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
    expect(state.cancelled).toBe(true)
    expect(state.pulled).toBeLessThan(5)
    const small = chunked('{"a":', '1}')
    expect(await readBody(small.request, { maxBytes: 10, as: 'json' })).toEqual({ ok: true, body: { a: 1 }, text: '{"a":1}' })
  })

  it('a small body with a declared length is read whole, and held to maxBytes even when it is longer than it declared', async () => {
    expect(await readBody(post('{"a":1}', { 'content-length': '7' }), { maxBytes: 10, as: 'json' })).toEqual({ ok: true, body: { a: 1 }, text: '{"a":1}' })
    const text = '"' + 'é'.repeat(5) + '"'
    expect(await readBody(post(text, { 'content-length': '2' }), { maxBytes: 11, as: 'text' })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
    expect(await readBody(post('x'.repeat(20), { 'content-length': '2' }), { maxBytes: 11, as: 'text' })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
  })

  it('counts bytes, not characters', async () => {
    const text = '"' + 'é'.repeat(5) + '"' // 7 characters, 12 bytes
    expect(await readBody(post(text), { maxBytes: 11, as: 'text' })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
    expect(await readBody(chunked(text).request, { maxBytes: 11, as: 'text' })).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
    expect(await readBody(post(text), { maxBytes: 12, as: 'json' })).toMatchObject({ ok: true, body: 'é'.repeat(5) })
  })

  it('parses JSON with the depth guard; invalid JSON is INVALID_JSON without the text it quotes', async () => {
    const deep = '['.repeat(maxJsonDepth + 1) + ']'.repeat(maxJsonDepth + 1)
    expect(await readBody(post(deep), { maxBytes: 10_000, as: 'json' })).toMatchObject({ ok: false, error: { code: 'INVALID_JSON' } })
    const invalid = await readBody(post('{"secret": CANARY'), { maxBytes: 100, as: 'json' })
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_JSON' } })
    expect(!invalid.ok && invalid.error.message).not.toContain('CANARY')
  })
})
