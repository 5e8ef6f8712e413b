// SPEC §5 "Progress": a tools/call that carries a progressToken gets notifications/progress for
// each value the tool streams (SPEC §8), read with the official SDK (v2) client's `onprogress`.
import { afterEach, describe, expect, it } from 'vitest'
import type { Progress } from '@modelcontextprotocol/client'
import { closeAll, connectMcp } from './mcp-client.ts'
import { recordProgress } from '../fixtures/legacy-mcp-tasks.ts'

afterEach(closeAll)

describe('MCP progress notifications', () => {
  it('each writer.write and writer.custom value, transient ones included, then the result', async () => {
    const { client } = await connectMcp()
    const seen: Progress[] = []
    const result = await client.callTool({ name: 'progress-writer', arguments: { steps: 2 } }, { onprogress: (progress) => void seen.push(progress) })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ steps: 2, secret: 's3cret' })
    expect(seen.map((progress) => progress.progress)).toEqual([1, 2, 3, 4, 5, 6])
    expect(seen.map((progress) => progress.message)).toEqual([
      '{"step":1}',
      '{"step":1}',
      '{"percent":50}',
      '{"step":2}',
      '{"step":2}',
      '{"percent":100}',
    ])
    expect((seen[1] as { _meta?: Record<string, unknown> })._meta?.['toolroute/event']).toEqual({ type: 'data-heartbeat', data: { step: 1 }, transient: true })
  })

  it("an async generator's preliminary outputs, not its final one (that is the result)", async () => {
    const { client } = await connectMcp()
    const seen: Progress[] = []
    const text = 'One. Two.'
    const result = await client.callTool({ name: 'draft-summary', arguments: { text } }, { onprogress: (progress) => void seen.push(progress) })
    expect(result.structuredContent).toEqual({ summary: 'One. Two.', sentences: 2, done: true })
    expect(seen.map((progress) => JSON.parse(progress.message!))).toEqual([
      { summary: 'One.', sentences: 1, done: false },
      { summary: 'One. Two.', sentences: 2, done: true },
    ])
  })

  it('a generator that fails midway: its progress went out, the result is an isError', async () => {
    const { client } = await connectMcp()
    const seen: Progress[] = []
    const result = await client.callTool({ name: 'flaky-drafts', arguments: {} }, { onprogress: (progress) => void seen.push(progress) })
    expect(result.isError).toBe(true)
    expect(seen.map((progress) => progress.message)).toEqual(['first draft'])
  })

  it('in a session (a client that declared elicitation), progress goes out on the call’s own stream too', async () => {
    const { client } = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const seen: Progress[] = []
    const result = await client.callTool({ name: 'draft-summary', arguments: { text: 'A. B. C.' } }, { onprogress: (progress) => void seen.push(progress) })
    expect(result.structuredContent).toMatchObject({ sentences: 3 })
    expect(seen.map((progress) => progress.progress)).toEqual([1, 2, 3])
  })

  it('a run approved through the form: what its approved step streams is progress of the same call', async () => {
    const { client } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { approved: true } }) })
    const seen: Progress[] = []
    const result = await client.callTool({ name: 'approved-drafts', arguments: { topic: 'harbours' } }, { onprogress: (progress) => void seen.push(progress) })
    expect(result.structuredContent).toEqual({ text: 'harbours' })
    expect(seen.map((progress) => progress.message)).toEqual(['{"stage":"outline"}', '{"alive":true}', '{"text":"har"}', '{"text":"harbours"}'])
    expect(seen.map((progress) => progress.progress)).toEqual([1, 2, 3, 4])
  })

  it('a background tool: the values it writes in its run are progress of the call that waits for it', async () => {
    const { client } = await connectMcp()
    const seen: Progress[] = []
    const files = ['a.ts', 'b.ts']
    const result = await client.callTool({ name: 'index-repository', arguments: { repository: 'acme/x', files, delayMs: 10 } }, {
      onprogress: (progress) => void seen.push(progress),
    })
    expect(result.structuredContent).toMatchObject({ repository: 'acme/x', indexed: 2 })
    const written = seen.map((progress) => JSON.parse(progress.message!)).filter((value) => 'file' in value)
    expect(written).toEqual([
      { file: 'a.ts', indexed: 1, total: 2 },
      { file: 'b.ts', indexed: 2, total: 2 },
    ])
  })

  it('without a progressToken nothing is sent, and the result is the same', async () => {
    const { client } = await connectMcp()
    const notifications: string[] = []
    client.fallbackNotificationHandler = async (notification) => void notifications.push(notification.method)
    // Progress has a handler of its own in the SDK (never the fallback): this one sees any.
    const progress = recordProgress(client)
    const result = await client.callTool({ name: 'progress-writer', arguments: { steps: 1 } })
    expect(result.structuredContent).toEqual({ steps: 1, secret: 's3cret' })
    expect(notifications).toEqual([])
    expect(progress).toEqual([])
  })
})
