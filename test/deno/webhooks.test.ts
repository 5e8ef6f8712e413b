// SPEC §16 webhooks under Deno (runs and deliveries in Deno KV, sent by its queue; in memory with
// `queue: false`): a real HTTP receiver (Deno.serve) verifies each with the `standardwebhooks` library
// and sees run.waiting, then run.settled, once each; one that answers 500 twice gets the third attempt.
import assert from 'node:assert/strict'
import { Webhook } from 'standardwebhooks'
import { countedApproval, eventually, withApp } from './harness.ts'

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

async function receiver(failFirst = 0) {
  const received: { id: string; status: number; body: { type: string; data: { runId: string } } | undefined; raw: string }[] = []
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, async (request) => {
    const raw = await request.text()
    let body
    try {
      body = new Webhook(secret).verify(raw, Object.fromEntries(request.headers)) as (typeof received)[number]['body']
    } catch {
      body = undefined
    }
    const status = received.length < failFirst ? 500 : body ? 204 : 400
    received.push({ id: request.headers.get('webhook-id') ?? '', status, body, raw })
    return new Response(null, { status })
  })
  return { url: `http://127.0.0.1:${server.addr.port}/hooks`, received, close: () => server.shutdown() }
}

for (const queue of [true, false]) {
  Deno.test(`webhooks (${queue ? 'stored in Deno KV, sent by its queue' : 'queue: false, kept in memory'}): run.waiting then run.settled once each, verified, with no input; 500 twice gets the third`, async () => {
    const ok = await receiver()
    const flaky = await receiver(2)
    try {
      await withApp(
        async ({ request }) => {
          const call = await request('/tools/counted-approval', { json: { key: 'INPUT-CANARY' } })
          assert.equal(call.status, 202)
          const { runId } = await call.json()
          await eventually(async () => ok.received.length, (count) => count >= 1, 'run.waiting')
          assert.equal((await request(`/runs/${runId}/approve`, { json: {} })).status, 200)
          await eventually(async () => ok.received.length >= 2 && flaky.received.some((entry) => entry.status === 204), Boolean, 'run.settled and the third attempt')
          assert.deepEqual(ok.received.map((entry) => [entry.body?.type, entry.body?.data.runId, entry.status]), [['run.waiting', runId, 204], ['run.settled', runId, 204]])
          assert.ok(ok.received.every((entry) => !entry.raw.includes('CANARY')))
          assert.deepEqual(flaky.received.map((entry) => entry.status), [500, 500, 204])
          assert.equal(new Set(flaky.received.map((entry) => entry.id)).size, 1)
        },
        {
          tools: [countedApproval],
          queue,
          publicUrl: 'https://tools.example.test',
          webhooks: [{ url: ok.url, secret }, { url: flaky.url, secret, events: ['run.waiting'], retryDelaysMs: [0, 0, 0] }],
        },
      )
    } finally {
      await ok.close()
      await flaky.close()
    }
  })
}
