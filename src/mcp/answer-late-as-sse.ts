/** When a 2026-07-28 call still running stops waiting for a JSON answer, and how often its stream then writes. */
export interface LateAnswerTiming {
  /** A call settled within this keeps its JSON answer. */
  graceMs: number
  /** The interval of the keep-alive comments of a call answered as a stream. */
  keepAliveMs: number
}

/**
 * Short enough that a client's abort of a long call reaches it while its run still runs; long
 * enough that the calls that settle at once (most) never pay for a stream.
 */
export const lateAnswerTiming: LateAnswerTiming = { graceMs: 1000, keepAliveMs: 1000 }

const keepAlive = new TextEncoder().encode(': keepalive\n\n')

/**
 * A 2026-07-28 `tools/call` answered as one JSON body writes nothing until it ends, and local
 * workerd (`wrangler dev`) learns that a client dropped a request only when the Worker writes to
 * its response: the client's abort would go unnoticed and the call's run go on. So a call that
 * has not settled within the grace is answered as an SSE stream instead (Streamable HTTP lets the
 * server choose; the client accepts both), which writes a keep-alive comment at each interval:
 * a write to a client that left fails, the runtime cancels the stream, and `gone` ends the call.
 * A call that settles within the grace keeps its JSON answer, at the cost of one timer. Answering
 * every call as a stream would tax the short ones; the SDK's own keep-alive is for idle proxies
 * and comes too rarely to stop a run in time.
 *
 * `answering` is the SDK's answer: JSON (written as one `message` event) or, for a call that sent
 * notifications first, its own SSE stream (piped through).
 */
export function answerLateAsSse(answering: Promise<Response>, gone: () => void, timing: LateAnswerTiming = lateAnswerTiming): Promise<Response> {
  // One promise and one timer: the short calls pay for nothing else.
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(streamOf(answering, gone, timing.keepAliveMs)), timing.graceMs)
    answering.then(
      (answer) => (clearTimeout(timer), resolve(answer)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    )
  })
}

function streamOf(answering: Promise<Response>, gone: () => void, keepAliveMs: number): Response {
  let ticking: ReturnType<typeof setInterval> | undefined
  let inner: ReadableStreamDefaultReader<Uint8Array> | undefined
  let over = false
  const stop = () => {
    over = true
    clearInterval(ticking)
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (chunk: Uint8Array) => {
        if (!over) controller.enqueue(chunk)
      }
      write(keepAlive)
      ticking = setInterval(() => write(keepAlive), keepAliveMs)
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
    },
    cancel(reason) {
      // The client left: the call must learn it even where the request's own signal stays quiet.
      stop()
      void inner?.cancel(reason).catch(() => {})
      gone()
    },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' } })
}
