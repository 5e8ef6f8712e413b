/** A request body's chunks as they arrive, for the input phase to stream as deltas and count against the limit. */
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
    // Left early (over the limit): cancel, so the runtime does not hold the connection for a body nobody reads.
    if (!finished) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}
