/** Whether an input is text arriving in pieces (a model's argument deltas) rather than a value. */
function isTextStream(value: unknown): value is AsyncIterable<string> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<string>)[Symbol.asyncIterator] === 'function'
}

let streamingSupported: boolean | undefined

/**
 * Whether this runtime sends a `ReadableStream` as a streamed request body. Workers, Deno, Node
 * and Chromium do (Chromium over HTTP/2 only); Firefox and Safari turn the stream into the text
 * "[object ReadableStream]", which shows as a `text/plain` content type on the request.
 */
function supportsStreamingBodies(): boolean {
  if (streamingSupported !== undefined) return streamingSupported
  try {
    const probe = new Request('http://toolroute.invalid', { method: 'POST', body: new ReadableStream(), duplex: 'half' } as RequestInit)
    return (streamingSupported = !probe.headers.has('content-type'))
  } catch {
    return (streamingSupported = false)
  }
}

/**
 * The request body of a tool input: a value as JSON text; text pieces as a stream that sends
 * each piece as it arrives (no content length, so the server streams the input live), or, where
 * the runtime cannot stream a request body, as one text once the pieces are all in.
 */
export async function inputBody(input: unknown): Promise<{ body: BodyInit; streamed: boolean }> {
  if (!isTextStream(input)) return { body: JSON.stringify(input ?? {}), streamed: false }
  if (!supportsStreamingBodies()) {
    let text = ''
    for await (const piece of input) text += piece
    return { body: text, streamed: false }
  }
  const iterator = input[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Skips empty pieces: an empty chunk would read as the end of the body on some transports.
      while (true) {
        const next = await iterator.next()
        if (next.done) return controller.close()
        if (next.value.length > 0) return controller.enqueue(encoder.encode(next.value))
      }
    },
    async cancel(reason) {
      await iterator.return?.(reason)
    },
  })
  return { body, streamed: true }
}
