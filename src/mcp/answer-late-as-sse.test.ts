import { describe, expect, it, vi } from 'vitest'
import { answerLateAsSse } from './answer-late-as-sse.ts'

const timing = { graceMs: 20, keepAliveMs: 10 }
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value))
const answer = { jsonrpc: '2.0', id: 1, result: { content: [] } }

describe('answerLateAsSse', () => {
  it('keeps the JSON answer of a call that settles within the grace', async () => {
    const json = Response.json(answer)
    const gone = vi.fn()
    expect(await answerLateAsSse(later(1, json), gone, timing)).toBe(json)
    expect(gone).not.toHaveBeenCalled()
  })

  it('answers a late call as a stream of keep-alives, then its JSON answer as one message event', async () => {
    const response = await answerLateAsSse(later(60, Response.json(answer)), () => {}, timing)
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const text = await response.text()
    expect(text.startsWith(': keepalive\n\n: keepalive\n\n')).toBe(true)
    expect(text.endsWith(`event: message\ndata: ${JSON.stringify(answer)}\n\n`)).toBe(true)
    expect(text.replace(/(: keepalive\n\n)+/, '')).toBe(`event: message\ndata: ${JSON.stringify(answer)}\n\n`)
  })

  it('pipes a late answer that the SDK streamed itself (a call that sent notifications)', async () => {
    const frames = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\nevent: message\ndata: {"done":1}\n\n'
    const sse = new Response(frames, { headers: { 'content-type': 'text/event-stream' } })
    const text = await (await answerLateAsSse(later(30, sse), () => {}, timing)).text()
    expect(text.replace(/(: keepalive\n\n)+/, '')).toBe(frames)
  })

  it('tells the call its client left when the stream is cancelled, and writes no more', async () => {
    const gone = vi.fn()
    let cancelled: unknown
    const inner = new Response(new ReadableStream({ cancel: (reason) => void (cancelled = reason) }), { headers: { 'content-type': 'text/event-stream' } })
    const response = await answerLateAsSse(later(30, inner), gone, timing)
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': keepalive\n\n')
    await later(50, undefined)
    await reader.cancel(new Error('client gone'))
    expect(gone).toHaveBeenCalledOnce()
    expect(cancelled).toMatchObject({ message: 'client gone' })
  })

  it('passes a call that fails within the grace on as its failure', async () => {
    await expect(answerLateAsSse(Promise.reject(new Error('broken')), () => {}, timing)).rejects.toThrow('broken')
  })
})
