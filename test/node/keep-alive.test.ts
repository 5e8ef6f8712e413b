// An idle SSE follower is kept alive: `: keep-alive` comments at the app's `keepAliveMs` while a
// background run is silent (15 s by default; 100 ms here, so the test takes a second), then the
// run's events and its end, nothing lost.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { sseMessages } from '../fixtures/read-sse.ts'

let release!: () => void
const released = new Promise<void>((resolve) => (release = resolve))
const quiet = createTool({
  id: 'quiet-background',
  description: 'Silent until the test releases it',
  inputSchema: z.object({}),
  background: { enabled: true, timeoutMs: 30_000 },
  execute: async () => {
    await released
    return { done: true }
  },
})

describe('keep-alive', () => {
  it('an idle follower gets a keep-alive at the configured interval, then the run to its end', async () => {
    const app = createToolApp({ tools: [quiet], keepAliveMs: 100 })
    const call = await app.request('/tools/quiet-background', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{}' })
    const runId = call.headers.get('x-run-id')!
    await call.body?.cancel()
    const follower = await app.request(`/runs/${runId}/events`)
    const comments: number[] = []
    const started = Date.now()
    const reader = sseMessages(follower.body!, () => comments.push(Date.now() - started)).getReader()
    const messages: string[] = []
    const reading = (async () => {
      while (true) {
        const { done, value } = await reader.read()
        if (done) return
        messages.push(value.data)
      }
    })()
    await new Promise((resolve) => setTimeout(resolve, 1_050))
    const idle = comments.length
    release()
    await reading
    const gaps = comments.slice(1).map((at, index) => at - comments[index]!)
    console.log(`keep-alive: ${idle} comments in 1.05 s of silence at keepAliveMs 100 (gaps ${Math.min(...gaps)}-${Math.max(...gaps)} ms), then ${messages.length} messages to [DONE]`)
    // At most one per interval, and enough that no 1 s of silence goes by without one (an upper bound only for load).
    expect(idle).toBeGreaterThanOrEqual(4)
    expect(idle).toBeLessThanOrEqual(11)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(80)
    expect(messages.at(-1)).toBe('[DONE]')
    expect(messages.map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as { type: string }).type))).toEqual(
      expect.arrayContaining(['start', 'tool-input-available', 'tool-output-available', 'finish', '[DONE]']),
    )
  })
})
