// SPEC §16 webhooks, in process (toolroute/server over the memory run store): a real HTTP receiver
// verifies every delivery with the `standardwebhooks` library.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { startWebhookReceiver } from '../shared/webhook-receiver.ts'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const publicUrl = 'https://tools.example.test/api'
const refund = createTool({
  id: 'refund',
  description: 'Refunds an order once a person approves',
  inputSchema: z.object({ order: z.string() }),
  requireApproval: true,
  execute: async ({ order }) => ({ refunded: `${order}-OUTPUT-CANARY` }),
})
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closing.splice(0)) await close()
})

async function receiver(options: { failFirst?: number } = {}) {
  const started = await startWebhookReceiver(secret, options)
  closing.push(started.close)
  return started
}
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('webhooks (in process)', () => {
  it('tells a verified run.waiting, then run.settled once approved, once each; never the input or output', async () => {
    const hooks = await receiver()
    const app = createToolApp({ tools: [refund], publicUrl, webhooks: [{ url: hooks.url, secret }] })
    const call = await app.request('/tools/refund', json({ order: 'INPUT-CANARY' }))
    const started = (await call.json()) as { runId: string; status: string }
    expect(started.status).toBe('approval-required')
    const [waiting] = await hooks.accepted(1)
    expect(waiting!.body).toMatchObject({
      type: 'run.waiting',
      data: {
        runId: started.runId,
        toolId: 'refund',
        status: 'approval-required',
        approvalId: expect.stringMatching(/^approval_/),
        links: {
          run: `${publicUrl}/runs/${started.runId}`,
          approve: `${publicUrl}/runs/${started.runId}/approve`,
          decline: `${publicUrl}/runs/${started.runId}/decline`,
        },
      },
    })
    // The link is the route: approving by its path settles the run.
    const approved = await app.request(new URL(waiting!.body!.data.links.approve!).pathname.replace(/^\/api/, ''), json({}))
    expect(approved.status).toBe(200)
    await approved.text()
    const accepted = await hooks.accepted(2)
    expect(accepted.map((delivery) => delivery.body?.type)).toEqual(['run.waiting', 'run.settled'])
    expect(accepted[1]!.body!.data).toMatchObject({ runId: started.runId, status: 'completed' })
    expect(accepted[1]!.body!.data.links).toEqual({ run: `${publicUrl}/runs/${started.runId}`, events: `${publicUrl}/runs/${started.runId}/events` })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(hooks.received).toHaveLength(2)
    expect(new Set(hooks.received.map((delivery) => delivery.id)).size).toBe(2)
    for (const { raw, body } of hooks.received) {
      expect(raw).not.toMatch(/CANARY/)
      expect(Object.keys(body!.data).sort()).toEqual(expect.arrayContaining(['runId', 'toolId', 'toolCallId', 'status', 'createdAt', 'updatedAt', 'links']))
      expect(body!.data).not.toHaveProperty('input')
      expect(body!.data).not.toHaveProperty('output')
    }
  })

  it('a receiver that answers 500 twice gets the third attempt, with the same webhook-id', async () => {
    const hooks = await receiver({ failFirst: 2 })
    const app = createToolApp({ tools: [refund], publicUrl, webhooks: [{ url: hooks.url, secret, events: ['run.waiting'], retryDelaysMs: [0, 0, 0] }] })
    await (await app.request('/tools/refund', json({ order: 'a' }))).text()
    await hooks.accepted(1)
    expect(hooks.received.map((delivery) => delivery.status)).toEqual([500, 500, 204])
    expect(new Set(hooks.received.map((delivery) => delivery.id)).size).toBe(1)
    expect(hooks.received.every((delivery) => delivery.body?.type === 'run.waiting')).toBe(true)
  })

  it('a dead receiver, a refused connection or one that never answers neither fails nor holds the call', async () => {
    // A receiver that takes the request and never answers: the call must not wait for it.
    let held!: () => void
    const took = new Promise<void>((resolve) => (held = resolve))
    const hanging = createServer(() => held())
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    closing.push(() => new Promise<void>((resolve) => (hanging.closeAllConnections(), hanging.close(() => resolve()))))
    const refused = createServer()
    await new Promise<void>((resolve) => refused.listen(0, '127.0.0.1', resolve))
    const refusedUrl = `http://127.0.0.1:${(refused.address() as AddressInfo).port}/`
    await new Promise<void>((resolve) => refused.close(() => resolve()))
    const app = createToolApp({
      tools: [refund],
      publicUrl,
      webhooks: [
        { url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`, secret, retryDelaysMs: [] },
        { url: refusedUrl, secret, retryDelaysMs: [] },
        { url: 'http://unresolvable.invalid/hooks', secret, retryDelaysMs: [] },
      ],
    })
    const call = await app.request('/tools/refund', json({ order: 'b' }))
    const { runId } = (await call.json()) as { runId: string }
    expect(call.status).toBe(202)
    await took
    // The receiver still holds its delivery; the approval answers anyway.
    const approved = await app.request(`/runs/${runId}/approve`, json({}))
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'completed' })
  })

  it('refuses, when the app is made, webhooks without a publicUrl or with a secret not in whsec_ form', () => {
    expect(() => createToolApp({ tools: [refund], webhooks: [{ url: 'https://hooks.example.test/', secret }] })).toThrow(/publicUrl/)
    expect(() => createToolApp({ tools: [refund], publicUrl, webhooks: [{ url: 'https://hooks.example.test/', secret: 'hunter2' }] })).toThrow(/whsec_/)
  })
})
