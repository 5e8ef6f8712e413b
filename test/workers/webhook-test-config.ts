// The webhooks of the WEBHOOK_RUNS objects (test/workers/worker.ts): read at each transition and
// delivery, so the test can name its receiver (a Node server whose port is known at run time only).
export const webhookTarget = { origin: 'http://127.0.0.1:1' }
export const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

export const webhookTestConfig = {
  publicUrl: 'https://tools.example.test',
  get webhooks() {
    return [
      { url: `${webhookTarget.origin}/hooks/ok`, secret: webhookSecret },
      { url: `${webhookTarget.origin}/hooks/flaky`, secret: webhookSecret, events: ['run.waiting' as const], retryDelaysMs: [0, 0, 0] },
      // Nothing listens there: refused at once, never retried, never felt by the call.
      { url: 'http://127.0.0.1:1/refused', secret: webhookSecret, retryDelaysMs: [] },
    ]
  },
}
