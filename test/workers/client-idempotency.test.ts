// toolroute/client and toolroute/ai send the tool call id as the Idempotency-Key (SPEC §9): an
// agent that retries a step gets the first call's result, and the tool runs once.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient, ToolClientError } from 'toolroute/client'
import { counter, uniqueKey } from './run-client.ts'

/** A client whose every request is noted (its idempotency-key header) on the way to the Worker. */
function recordingClient(options: { idempotency?: boolean } = {}) {
  const keys: (string | null)[] = []
  const client = createToolClient({
    fetch: (request) => {
      if (request.method === 'POST') keys.push(request.headers.get('idempotency-key'))
      return SELF.fetch(request)
    },
    baseUrl: 'http://tools.test',
    ...options,
  })
  return { client, keys }
}

describe('client: the tool call id is the Idempotency-Key', () => {
  it('a retried call with the same toolCallId gets the first result; the tool runs once', async () => {
    const { client, keys } = recordingClient()
    const key = uniqueKey('client')
    const toolCallId = `call_${key}`
    const first = await client.call('counted-call', { key }, { toolCallId })
    const again = await client.call('counted-call', { key }, { toolCallId })
    expect(again).toEqual(first)
    expect(first).toMatchObject({ status: 'completed', output: { executions: 1 }, toolCallId })
    expect(keys).toEqual([toolCallId, toolCallId])
    // Streamed (SSE) too: the replay is the run's events.
    const events = []
    for await (const entry of client.stream('counted-call', { key }, { toolCallId })) events.push(entry.event)
    expect(events.find((event) => event.type === 'tool-output-available')).toMatchObject({ output: { executions: 1 } })
    expect(await counter(key).count()).toBe(1)
  })

  it('the same toolCallId with another input rejects with IDEMPOTENCY_KEY_REUSED', async () => {
    const { client } = recordingClient()
    const key = uniqueKey('client-reused')
    await client.call('counted-call', { key }, { toolCallId: `call_${key}` })
    const error = await client.call('counted-call', { key, fail: false }, { toolCallId: `call_${key}` }).catch((caught: unknown) => caught)
    expect(ToolClientError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 })
  })

  it('sends no key without a toolCallId, with idempotency: false, or for an input streamed as it arrives; idempotencyKey sets one', async () => {
    const key = uniqueKey('client-off')
    const plain = recordingClient()
    await plain.client.call('counted-call', { key })
    async function* pieces() {
      yield `{"key":${JSON.stringify(key)}`
      yield '}'
    }
    await plain.client.call('counted-call', pieces(), { toolCallId: `call_${key}_streamed` })
    await plain.client.call('counted-call', { key }, { idempotencyKey: `explicit_${key}` })
    await plain.client.call('counted-call', { key }, { idempotencyKey: `explicit_${key}` })
    expect(plain.keys).toEqual([null, null, `explicit_${key}`, `explicit_${key}`])

    const off = recordingClient({ idempotency: false })
    await off.client.call('counted-call', { key }, { toolCallId: `call_${key}` })
    await off.client.call('counted-call', { key }, { toolCallId: `call_${key}` })
    expect(off.keys).toEqual([null, null])
    expect(await counter(key).count()).toBe(5)
  })
})

describe('toolroute/ai: the AI SDK tool call id is the Idempotency-Key', () => {
  it('an AI SDK step retried with the same toolCallId executes the remote tool once', async () => {
    const { client, keys } = recordingClient()
    const tools = await toAiSdkTools(client, { tools: ['counted-call'] })
    const key = uniqueKey('ai')
    const run = async () => {
      const outputs: unknown[] = []
      const result = tools['counted-call']!.execute!({ key }, { toolCallId: `call_ai_${key}`, messages: [], context: {} }) as AsyncIterable<unknown>
      for await (const output of result) outputs.push(output)
      return outputs
    }
    expect(await run()).toEqual([{ executions: 1 }])
    expect(await run()).toEqual([{ executions: 1 }])
    expect(keys).toEqual([`call_ai_${key}`, `call_ai_${key}`])
    expect(await counter(key).count()).toBe(1)
  })
})

describe('toolroute/ai: a retried step of a tool that needed approval', () => {
  it('replays the first call, finds the run approved already, and ends with its output: one execution', async () => {
    const { client } = recordingClient()
    const tools = await toAiSdkTools(client, { tools: ['counted-approval'] })
    const key = uniqueKey('ai-approval')
    const run = async () => {
      const outputs: unknown[] = []
      const result = tools['counted-approval']!.execute!({ key }, { toolCallId: `call_ai_${key}`, messages: [], context: {} }) as AsyncIterable<unknown>
      for await (const output of result) outputs.push(output)
      return outputs
    }
    expect(await run()).toEqual([{ executions: 1 }])
    expect(await run()).toEqual([{ executions: 1 }])
    expect(await counter(key).count()).toBe(1)
  })
})
