// A request body for Node's fetch that the test writes chunk by chunk while it reads the
// response: fetch sends it with `transfer-encoding: chunked` (no content-length).

export interface LiveBody {
  stream: ReadableStream<Uint8Array>
  send(text: string): void
  end(): void
}

export function liveBody(): LiveBody {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
  const encoder = new TextEncoder()
  return { stream, send: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close() }
}

/** `fetch` options for a streamed body (Node needs `duplex: 'half'`). */
export function streamedPost(body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
