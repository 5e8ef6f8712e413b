/**
 * A request body's chunks as they arrive, for the input phase to stream as deltas and count
 * against the limit (a chunked body has no length up front). A body read whole is `readBody`'s.
 */
export async function* streamChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let finished = false
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) {
        finished = true
        return
      }
      yield value
    }
  } finally {
    // Left early (a body over the limit): cancel it, so the runtime knows the rest will never be
    // read instead of holding the connection for a body nobody consumes.
    if (!finished) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}
