// Idempotent calls (SPEC §9) through the real Worker and its Durable Objects: the first request
// with a key executes, repeats answer what it answered and never execute, and 50 racing
// requests with one key execute once.
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readSse } from '../fixtures/read-sse.ts'
import { as, call, counter, errorOf, runAction, sequenced, uniqueKey } from './run-client.ts'

const keyed = (key: string, options: { auth?: string; sse?: boolean; headers?: Record<string, string> } = {}) => ({
  ...options,
  headers: { 'idempotency-key': key, ...options.headers },
})

describe('Idempotency-Key on POST /tools/:toolId', () => {
  it('a JSON repeat answers the first answer byte for byte, with idempotent-replayed, and never executes again', async () => {
    const key = uniqueKey('json')
    const first = await call('counted-call', { key }, keyed(key, { auth: 'alice' }))
    expect(first.status).toBe(200)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const firstText = await first.text()
    expect(JSON.parse(firstText)).toMatchObject({ status: 'completed', output: { executions: 1 } })

    for (let repeat = 0; repeat < 3; repeat++) {
      const again = await call('counted-call', { key }, keyed(key, { auth: 'alice' }))
      expect(again.status).toBe(200)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(again.headers.get('x-run-id')).toBe(first.headers.get('x-run-id'))
      expect(again.headers.get('x-tool-call-id')).toBe(first.headers.get('x-tool-call-id'))
      expect(again.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await again.text()).toBe(firstText)
    }
    expect(await counter(key).count()).toBe(1)
  })

  it('an SSE repeat replays the run\'s events, ids and all; a JSON repeat of an SSE call gets the JSON answer', async () => {
    const key = uniqueKey('sse')
    const first = await sequenced(await call('counted-call', { key }, keyed(key, { auth: 'alice', sse: true })))
    expect(first.done).toBe(true)
    expect(first.entries.map((entry) => entry.event.type)).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])

    const response = await call('counted-call', { key }, keyed(key, { auth: 'alice', sse: true }))
    expect(response.headers.get('idempotent-replayed')).toBe('true')
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const again = await sequenced(response)
    expect(again).toEqual(first)

    const json = await call('counted-call', { key }, keyed(key, { auth: 'alice' }))
    expect(json.headers.get('idempotent-replayed')).toBe('true')
    expect(await json.json()).toEqual({
      runId: response.headers.get('x-run-id'),
      toolCallId: response.headers.get('x-tool-call-id'),
      status: 'completed',
      output: { executions: 1 },
      modelOutput: { type: 'json', value: { executions: 1 } },
    })
    expect(await counter(key).count()).toBe(1)
  })

  it('the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED, and with another tool too', async () => {
    const key = uniqueKey('reused')
    expect((await call('counted-call', { key }, keyed(key))).status).toBe(200)
    const other = await call('counted-call', { key, fail: false }, keyed(key))
    expect(await errorOf(other)).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' })
    const spaced = await call('counted-call', JSON.stringify({ key }, null, 1), keyed(key))
    expect(spaced.status).toBe(422)
    const otherTool = await call('weather-tool', { key }, keyed(key))
    expect(otherTool.status).toBe(422)
    expect(await counter(key).count()).toBe(1)
  })

  it('a repeat while the first still executes answers 409 IDEMPOTENCY_CONFLICT; after it, the replay', async () => {
    const key = uniqueKey('conflict')
    const first = call('counted-call', { key, gated: true }, keyed(key))
    while ((await counter(key).count()) < 1) await new Promise((resolve) => setTimeout(resolve, 10))
    const during = await call('counted-call', { key, gated: true }, keyed(key))
    expect(await errorOf(during)).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' })
    await counter(`${key}:gate`).increment()
    const done = await first
    expect(done.status).toBe(200)
    const after = await call('counted-call', { key, gated: true }, keyed(key))
    expect(after.headers.get('idempotent-replayed')).toBe('true')
    expect(await after.json()).toMatchObject({ output: { executions: 1 } })
  })

  it('keys are per principal: another caller with the same key executes on its own', async () => {
    const key = uniqueKey('principal')
    const alice = await call('counted-call', { key }, keyed(key, { auth: 'alice' }))
    const bob = await call('counted-call', { key }, keyed(key, { auth: 'bob' }))
    expect(bob.headers.get('idempotent-replayed')).toBeNull()
    expect(bob.headers.get('x-run-id')).not.toBe(alice.headers.get('x-run-id'))
    expect(await counter(key).count()).toBe(2)
  })

  it('50 concurrent identical requests: one execution, 49 replays or conflicts, all with the first run id', async () => {
    const key = uniqueKey('race')
    const responses = await Promise.all(Array.from({ length: 50 }, () => call('counted-call', { key }, keyed(key, { auth: 'alice' }))))
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1)
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true)
    const runIds = new Set(responses.filter((response) => response.status === 200).map((response) => response.headers.get('x-run-id')))
    expect(runIds.size).toBe(1)
    expect(responses.filter((response) => response.status === 200 && response.headers.get('idempotent-replayed') === null)).toHaveLength(1)
    expect(await counter(key).count()).toBe(1)
    await Promise.all(responses.map((response) => response.body?.cancel()))
  })

  it('a failed execution is kept and replayed (500 EXECUTION_FAILED), as Stripe does: the tool does not run again', async () => {
    const key = uniqueKey('failed')
    const first = await call('counted-call', { key, fail: true }, keyed(key))
    const firstText = await first.text()
    expect(first.status).toBe(500)
    expect(JSON.parse(firstText)).toEqual({ error: { code: 'EXECUTION_FAILED', message: 'execution 1 failed' } })
    const again = await call('counted-call', { key, fail: true }, keyed(key))
    expect(again.status).toBe(500)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.text()).toBe(firstText)
    const sse = await readSse(await call('counted-call', { key, fail: true }, keyed(key, { sse: true })))
    expect(sse.events.map((event) => event.type)).toContain('tool-output-error')
    expect(await counter(key).count()).toBe(1)
  })

  it('bad input stores nothing: the key is released, and a corrected repeat executes', async () => {
    const key = uniqueKey('bad-input')
    const bad = await call('counted-call', { key: 42 }, keyed(key))
    expect(await errorOf(bad)).toMatchObject({ status: 400, code: 'INPUT_VALIDATION_FAILED' })
    const again = await call('counted-call', { key: 42 }, keyed(key))
    expect(again.status).toBe(400)
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    const notJson = await call('counted-call', '{"key":', keyed(key))
    expect(await errorOf(notJson)).toMatchObject({ status: 400, code: 'INVALID_JSON' })
    const fixed = await call('counted-call', { key }, keyed(key))
    expect(fixed.status).toBe(200)
    expect(fixed.headers.get('idempotent-replayed')).toBeNull()
    expect(await counter(key).count()).toBe(1)
  })

  it('a key that is empty or over 255 characters answers 400 IDEMPOTENCY_KEY_INVALID before anything runs', async () => {
    const key = uniqueKey('invalid')
    for (const bad of ['', 'k'.repeat(256)]) {
      const response = await call('counted-call', { key }, keyed(bad))
      expect(await errorOf(response)).toMatchObject({ status: 400, code: 'IDEMPOTENCY_KEY_INVALID' })
    }
    expect(await counter(key).count()).toBe(0)
    expect((await call('counted-call', { key }, keyed('k'.repeat(255)))).status).toBe(200)
  })

  it('an approval call replays its 202; the approve still runs the tool once', async () => {
    const key = uniqueKey('approval')
    const first = await call('counted-approval', { key }, keyed(key, { auth: 'alice' }))
    expect(first.status).toBe(202)
    const body = (await first.json()) as { runId: string; approvalId: string }
    const again = await call('counted-approval', { key }, keyed(key, { auth: 'alice' }))
    expect(again.status).toBe(202)
    expect(await again.json()).toEqual(body)
    expect((await runAction(body.runId, 'approve', undefined, { auth: 'alice' })).status).toBe(200)
    // The replay is what the first request answered, not where the run is now.
    expect(await (await call('counted-approval', { key }, keyed(key, { auth: 'alice' }))).json()).toEqual(body)
    expect(await counter(key).count()).toBe(1)
  })

  it('a background call replays its 202 running and never starts a second run', async () => {
    const key = uniqueKey('background')
    const first = await call('flaky-background', { key, failures: 0 }, keyed(key))
    expect(first.status).toBe(202)
    const body = await first.json()
    const again = await call('flaky-background', { key, failures: 0 }, keyed(key))
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(body)
    const replayed = await readSse(await call('flaky-background', { key, failures: 0 }, keyed(key, { sse: true })))
    expect(replayed.done).toBe(true)
    expect(replayed.events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
    expect(await counter(key).count()).toBe(1)
  })

  it('the key object forgets the key at its alarm (the retention): a repeat then executes again', async () => {
    const key = uniqueKey('retention')
    await call('counted-call', { key }, keyed(key, { auth: 'alice' }))
    const namespace = (env as unknown as { TOOLROUTE_IDEMPOTENCY: DurableObjectNamespace }).TOOLROUTE_IDEMPOTENCY
    const principal = `auth:${await sha256('Bearer alice')}`
    const stub = namespace.get(namespace.idFromName(JSON.stringify([principal, key])))
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    const again = await call('counted-call', { key }, keyed(key, { auth: 'alice' }))
    expect(again.headers.get('idempotent-replayed')).toBeNull()
    expect(await counter(key).count()).toBe(2)
  })

  it('a call without the header is not stored (its run answers RUN_NOT_FOUND) and runs every time', async () => {
    const key = uniqueKey('unkeyed')
    const first = await call('counted-call', { key }, { headers: as('alice') })
    await call('counted-call', { key }, { headers: as('alice') })
    expect(await counter(key).count()).toBe(2)
    const { getRun } = await import('./run-client.ts')
    expect((await getRun(first.headers.get('x-run-id')!, { auth: 'alice' })).status).toBe(404)
  })
})

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
