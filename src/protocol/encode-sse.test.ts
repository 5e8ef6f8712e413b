import { describe, expect, it } from 'vitest'
import { encodeSseEvent, sseDone, sseHeaders, sseKeepAlive } from './encode-sse.ts'

describe('encodeSseEvent', () => {
  it('writes id: <seq>, data: <json> and a blank line, with no event: line', () => {
    const text = encodeSseEvent(7, { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: 'a\nb' })
    expect(text).toBe('id: 7\ndata: {"type":"tool-input-delta","toolCallId":"call_1","inputTextDelta":"a\\nb"}\n\n')
    expect(text).not.toContain('event:')
  })

  it('ends with [DONE], keeps alive with a comment, and announces the AI SDK UI message stream', () => {
    expect(sseDone).toBe('data: [DONE]\n\n')
    expect(sseKeepAlive).toBe(': keep-alive\n\n')
    expect(sseHeaders).toMatchObject({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' })
  })
})
