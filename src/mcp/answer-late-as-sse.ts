/**
 * When a 2026-07-28 call still running is answered as a stream instead, and how often that stream keeps alive:
 * short enough that a client's abort reaches a long call's run; long enough that most calls never pay for a stream.
 */
export const lateAnswerTiming = { graceMs: 1000, keepAliveMs: 1000 }

const keepAlive = new TextEncoder().encode(': keepalive\n\n')

/**
 * Local workerd learns that a client dropped a request only when the Worker writes to it, so a call
 * answered as one JSON body would run on unnoticed. One not settled within the grace is answered as
 * SSE (the server may choose), with a keep-alive comment each interval (the SDK's comes too rarely):
 * a write to a client that left fails, and `gone` ends the call. The SDK's JSON answer becomes one
 * `message` event; its own stream is piped through.
 */
export function answerLateAsSse(answering: Promise<Response>, gone: () => void, timing = lateAnswerTiming): Promise<Response> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(streamOf(answering, gone, timing.keepAliveMs)), timing.graceMs)
    answering.then(
      (answer) => (clearTimeout(timer), resolve(answer)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    )
  })
}

function streamOf(answering: Promise<Response>, gone: () => void, keepAliveMs: number): Response {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let inner: ReadableStreamDefaultReader<Uint8Array> | undefined
  let over = false
  const write = (chunk: Uint8Array) => void (over || controller.enqueue(chunk))
  const ticking = setInterval(() => write(keepAlive), keepAliveMs)
  const stop = () => ((over = true), clearInterval(ticking))
  const body = new ReadableStream<Uint8Array>({
    start(opened) {
      controller = opened
      write(keepAlive)
    },
    cancel(reason) {
      stop()
      void inner?.cancel(reason).catch(() => {})
      gone()
    },
  })
  void (async () => {
    try {
      const answer = await answering
      if (over) return
      clearInterval(ticking)
      if (answer.headers.get('content-type')?.startsWith('text/event-stream') && answer.body) {
        inner = answer.body.getReader()
        for (let next = await inner.read(); !next.done; next = await inner.read()) write(next.value)
      } else {
        const text = await answer.text()
        // A JSON-RPC answer serialised by `Response.json` holds no raw newline: it is one `data` line.
        if (text) write(new TextEncoder().encode(`event: message\ndata: ${text}\n\n`))
      }
      if (!over) controller.close()
    } catch (error) {
      if (!over) controller.error(error)
    } finally {
      stop()
    }
  })()
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' } })
}
