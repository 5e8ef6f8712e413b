// A real HTTP webhook receiver for the tests: a Node server on a free port that verifies each
// delivery with the `standardwebhooks` library (`Webhook.verify`), keeps what it got, and answers
// 500 to the first `failFirst` deliveries.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface ReceivedWebhook {
  id: string
  /** The verified body, or undefined when `Webhook.verify` refused it. */
  body: { type: string; timestamp: string; data: Record<string, unknown> & { runId: string; links: Record<string, string> } } | undefined
  raw: string
  status: number
}

/** Starts a receiver; `received` holds every delivery (verified or not) in arrival order. */
export async function startWebhookReceiver(secret: string, options: { failFirst?: number } = {}) {
  const received: ReceivedWebhook[] = []
  const waiters = new Set<() => void>()
  const webhook = new Webhook(secret)
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
      let body: ReceivedWebhook['body']
      try {
        body = webhook.verify(raw, headers) as ReceivedWebhook['body']
      } catch {
        body = undefined
      }
      const status = received.length < (options.failFirst ?? 0) ? 500 : body ? 204 : 400
      received.push({ id: headers['webhook-id'] ?? '', body, raw, status })
      response.writeHead(status).end()
      waiters.forEach((wake) => wake())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  /** Resolves once `count` deliveries have been answered 2xx. */
  const accepted = (count: number) =>
    new Promise<ReceivedWebhook[]>((resolve) => {
      const check = () => {
        const ok = received.filter((delivery) => delivery.status < 300)
        if (ok.length >= count) {
          waiters.delete(check)
          resolve(ok)
        }
      }
      waiters.add(check)
      check()
    })
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { url, received, accepted, close }
}
