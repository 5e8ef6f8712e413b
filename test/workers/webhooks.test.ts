// SPEC §16 webhooks on real Durable Objects: each run's object stores its deliveries beside the run
// and sends them from its alarm (shared with the run's own sweeps) to a real HTTP receiver, which
// verifies them with the `standardwebhooks` library (test/workers/webhook-receiver.global.ts).
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { createWorker, workerRunStore } from 'toolroute/workers'
import { eventually, origin } from './http-client.ts'
import { as } from './run-client.ts'
import { tools } from '../../.toolroute/tools.ts'
import { webhookSecret, webhookTarget } from './webhook-test-config.ts'

type Received = { path: string; id: string; status: number; body: { type: string; data: Record<string, unknown> & { runId: string; links: Record<string, string> } } | undefined; raw: string }

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const front = createWorker({ tools, mcp: false, idempotency: false, runStore: workerRunStore })
const webhookEnv = { ...env, TOOLROUTE_RUNS: env.WEBHOOK_RUNS }
const request = (path: string, body: unknown) =>
  front.fetch(new Request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...as('alice') }, body: JSON.stringify(body) }), webhookEnv, ctx)
const receivedAt = async (path: string, runId: string): Promise<Received[]> =>
  ((await (await fetch(`${inject('webhookReceiver')}/received?path=${encodeURIComponent(path)}`)).json()) as Received[]).filter((entry) => entry.body?.data.runId === runId)
const runObject = (runId: string) => env.WEBHOOK_RUNS.get(env.WEBHOOK_RUNS.idFromName(runId))

beforeAll(() => {
  webhookTarget.origin = inject('webhookReceiver')
})

describe('webhooks (Durable Objects)', { timeout: 30_000 }, () => {
  it('an approval run tells run.waiting, then run.settled, once each, verified, without input or output', async () => {
    const call = await request('/tools/delete-file', { path: '/tmp/INPUT-CANARY' })
    expect(call.status).toBe(202)
    const { runId } = (await call.json()) as { runId: string }
    const waiting = await eventually(() => receivedAt('/hooks/ok', runId), (got) => got.length >= 1)
    expect(waiting).toHaveLength(1)
    expect(waiting[0]!.status).toBe(204)
    expect(waiting[0]!.body).toMatchObject({
      type: 'run.waiting',
      data: { runId, toolId: 'delete-file', status: 'approval-required', principal: expect.any(String), links: { approve: `https://tools.example.test/runs/${runId}/approve` } },
    })
    // The test verifies too, with the library a receiver uses.
    const approved = await request(`/runs/${runId}/approve`, {})
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { deleted: '/tmp/INPUT-CANARY' } })
    const told = await eventually(() => receivedAt('/hooks/ok', runId), (got) => got.length >= 2)
    // The object's alarm has nothing left to send, and running it again sends nothing more.
    await runDurableObjectAlarm(runObject(runId))
    const after = await receivedAt('/hooks/ok', runId)
    expect(after.map((entry) => [entry.body?.type, entry.status])).toEqual([['run.waiting', 204], ['run.settled', 204]])
    expect(told[1]!.body!.data).toMatchObject({ status: 'completed' })
    for (const entry of after) {
      expect(entry.raw).not.toMatch(/CANARY/)
      expect(entry.body!.data).not.toHaveProperty('input')
      expect(entry.body!.data).not.toHaveProperty('output')
    }
  })

  it('a receiver that answers 500 twice gets the third attempt, with the same webhook-id, from the alarm', async () => {
    const call = await request('/tools/delete-file', { path: '/tmp/flaky' })
    const { runId } = (await call.json()) as { runId: string }
    const attempts = await eventually(() => receivedAt('/hooks/flaky', runId), (got) => got.some((entry) => entry.status === 204))
    expect(attempts.map((entry) => entry.status)).toEqual([500, 500, 204])
    expect(new Set(attempts.map((entry) => entry.id)).size).toBe(1)
    expect(attempts.every((entry) => entry.body?.type === 'run.waiting')).toBe(true)
  })

  it('shares the one alarm: once the deliveries are sent, it is set for the waiting run to expire', async () => {
    const call = await request('/tools/delete-file', { path: '/tmp/alarm' })
    const { runId } = (await call.json()) as { runId: string }
    await eventually(() => receivedAt('/hooks/flaky', runId), (got) => got.some((entry) => entry.status === 204))
    await eventually(() => receivedAt('/hooks/ok', runId), (got) => got.length >= 1)
    const { alarm, expiresAt } = await runInDurableObject(runObject(runId), async (_instance, state) => ({
      alarm: await state.storage.getAlarm(),
      expiresAt: state.storage.sql.exec<{ record: string }>('SELECT record FROM run').one().record,
    }))
    expect(alarm).toBe(Date.parse((JSON.parse(expiresAt) as { expiresAt: string }).expiresAt))
  })

  it('verifies with the library: the body a receiver got is signed by the secret, and a wrong secret fails', async () => {
    const call = await request('/tools/delete-file', { path: '/tmp/verify' })
    const { runId } = (await call.json()) as { runId: string }
    const [entry] = await eventually(() => receivedAt('/hooks/ok', runId), (got) => got.length >= 1)
    expect(entry!.body).toBeDefined()
    expect(() => new Webhook('whsec_' + btoa('another secret of ours')).verify(entry!.raw, { 'webhook-id': entry!.id, 'webhook-timestamp': '0', 'webhook-signature': 'v1,x' })).toThrow()
  })
})
