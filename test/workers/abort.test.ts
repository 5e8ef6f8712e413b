import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { sseMessages } from '../fixtures/read-sse.ts'
import { callTool, eventually, origin, readProbe } from './http-client.ts'

describe('abort: the caller disconnecting aborts context.abortSignal', () => {
  it('an SSE caller that cancels the stream aborts the running tool', async () => {
    const key = `sse-${crypto.randomUUID()}`
    const response = await callTool('abort-recorder', { key, ms: 30_000 }, { sse: true })
    const reader = sseMessages(response.body!).getReader()
    // Wait until execute runs, then leave.
    for (let next = await reader.read(); !next.done && !next.value.data.includes('tool-input-available'); next = await reader.read());
    await eventually(() => readProbe(key), (entries) => entries.includes('started'))
    await reader.cancel()
    const entries = await eventually(() => readProbe(key), (entries) => entries.length > 1)
    expect(entries).toEqual(['started', 'aborted: The caller disconnected'])
  })

  it('a JSON caller that aborts its request aborts the running tool', async () => {
    const key = `json-${crypto.randomUUID()}`
    const controller = new AbortController()
    const pending = SELF.fetch(`${origin}/tools/abort-recorder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, ms: 30_000 }),
      signal: controller.signal,
    })
    pending.catch(() => {})
    await eventually(() => readProbe(key), (entries) => entries.includes('started'))
    controller.abort()
    await expect(pending).rejects.toThrow()
    const entries = await eventually(() => readProbe(key), (entries) => entries.length > 1)
    expect(entries).toEqual(['started', 'aborted: The caller disconnected'])
  })

  it('a caller that stays gets the output, and the signal never fires', async () => {
    const key = `stay-${crypto.randomUUID()}`
    const response = await callTool('abort-recorder', { key, ms: 10 })
    expect(await response.json()).toMatchObject({ status: 'completed', output: { waited: 10 } })
    expect(await readProbe(key)).toEqual(['started', 'finished'])
  })
})
