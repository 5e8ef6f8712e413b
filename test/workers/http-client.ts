// Calls the test Worker (tools/ + test fixtures) through SELF: the real fetch handler, in workerd.
import { SELF } from 'cloudflare:test'

export const origin = 'http://tools.test'

export interface CallOptions {
  headers?: Record<string, string>
  sse?: boolean
  query?: string
}

/** `POST /tools/:toolId` with a JSON body (a string is sent as is). */
export function callTool(toolId: string, body: unknown, options: CallOptions = {}): Promise<Response> {
  return SELF.fetch(`${origin}/tools/${toolId}${options.query ?? ''}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.sse ? { accept: 'text/event-stream' } : {}),
      ...options.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** The recorder fixtures' entries under `key` (see test/fixtures/test-tools.ts). */
export async function readProbe(key: string): Promise<string[]> {
  const response = await callTool('read-probe', { key })
  const body = (await response.json()) as { output: { entries: string[] } }
  return body.output.entries
}

/** Polls `check` until it holds, a bounded number of times (no timing asserts: only an upper bound). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, attempts = 200): Promise<T> {
  let value = await read()
  for (let attempt = 0; attempt < attempts && !check(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    value = await read()
  }
  return value
}

/** A request body the test writes chunk by chunk, when it chooses (no content-length: chunked). */
export function chunkedBody(): { stream: ReadableStream<Uint8Array>; send(chunk: string | Uint8Array): void; end(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  const encoder = new TextEncoder()
  return {
    stream,
    send: (chunk) => controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk),
    end: () => controller.close(),
  }
}
