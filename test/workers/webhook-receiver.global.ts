// Global setup of the workerd project: a real HTTP webhook receiver (Node) that the run objects of
// test/workers/webhooks.test.ts deliver to. It verifies each delivery with `standardwebhooks`,
// answers 500 to the first two attempts of each message sent to `/hooks/flaky`, and lists what a
// path got at `GET /received?path=…`. Its origin is provided to the tests as `webhookReceiver`.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'
import { Webhook } from 'standardwebhooks'

export const webhookTestSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

export default async function setup(project: TestProject) {
  const webhook = new Webhook(webhookTestSecret)
  const received: { path: string; id: string; status: number; body: unknown; raw: string }[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver')
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received.filter((entry) => entry.path === url.searchParams.get('path'))))
      return
    }
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
      let body: unknown
      try {
        body = webhook.verify(raw, headers)
      } catch {
        body = undefined
      }
      const id = headers['webhook-id'] ?? ''
      const earlier = received.filter((entry) => entry.path === url.pathname && entry.id === id).length
      const status = body === undefined ? 400 : url.pathname === '/hooks/flaky' && earlier < 2 ? 500 : 204
      received.push({ path: url.pathname, id, status, body, raw })
      response.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  project.provide('webhookReceiver', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

declare module 'vitest' {
  export interface ProvidedContext {
    webhookReceiver: string
  }
}
