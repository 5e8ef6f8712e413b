// A chunked body past maxInputBytes with SSE, under `wrangler dev` (its proxy in front): the
// stream must end the same way every time, `tool-input-error` then `finish` then `[DONE]`, never
// the proxy's 503 or a stream cut mid `tool-input-delta`.
import { describe, expect, inject, it } from 'vitest'
import { liveBody, streamedPost } from './live-body.ts'

const baseUrl = inject('baseUrl')
const rounds = 20

describe('a chunked SSE body over the limit under wrangler dev', () => {
  it(`ends with tool-input-error, finish and [DONE] in each of ${rounds} rounds`, async () => {
    const endings: string[] = []
    for (let round = 0; round < rounds; round++) {
      const body = liveBody()
      const pending = fetch(`${baseUrl}/tools/weather-tool`, streamedPost(body.stream, { accept: 'text/event-stream' }))
      body.send('{"location":"')
      // Written as fast as the transport takes it, past the limit and on: a client that keeps sending.
      const writing = (async () => {
        for (let index = 0; index < 12; index++) {
          body.send('x'.repeat(128 * 1024))
          await new Promise((resolve) => setTimeout(resolve, round % 3))
        }
        body.send('"}')
        body.end()
      })().catch(() => {})
      let ending: string
      try {
        const response = await pending
        const text = await response.text()
        const types = [...text.matchAll(/"type":"([^"]+)"/g)].map((match) => match[1])
        ending = `${response.status} ${types.slice(-2).join(',')} ${text.trimEnd().endsWith('data: [DONE]') ? 'DONE' : 'no DONE'}`
      } catch (error) {
        ending = `failed: ${error instanceof Error ? error.message : String(error)}`
      }
      await writing
      endings.push(ending)
    }
    console.log(`chunked SSE over the limit under wrangler dev: ${rounds} rounds: ${[...new Set(endings)].map((ending) => `${endings.filter((e) => e === ending).length}× ${ending}`).join('; ')}`)
    expect(new Set(endings)).toEqual(new Set(['200 tool-input-error,finish DONE']))
  })
})
