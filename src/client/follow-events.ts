import type { SequencedEvent } from '../protocol/tool-event.ts'
import { readToolEvents, streamDone } from './read-tool-events.ts'
import { ToolClientError } from './tool-client-error.ts'
import type { FollowOptions } from './tool-client-types.ts'

/** Whether a failure is the connection's (worth reconnecting), not the server's answer. */
function isTransient(error: unknown): boolean {
  if (!ToolClientError.isInstance(error)) return true // a body that broke mid-read
  return error.code === 'CONNECTION_LOST' || (error.code === 'UNEXPECTED_RESPONSE' && (error.status === 0 || error.status >= 500))
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => (clearTimeout(timer), reject(signal!.reason))
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * A run's events from `after` until the server ends the stream (`data: [DONE]`), each stream opened
 * by `open` after an event id (sent as `Last-Event-ID`). A connection that drops, or a stream that
 * ends without `[DONE]`, is reopened from the last event seen, so each event is yielded once and in
 * order; ids at or below it are skipped should a server replay them. Gives up with `CONNECTION_LOST`
 * after `maxRetries` reconnections in a row without a new event, waiting longer each time.
 */
export async function* followEvents(open: (after: number) => Promise<Response>, options: FollowOptions): AsyncGenerator<SequencedEvent> {
  const { signal, maxRetries = 5, retryDelayMs = 250, maxRetryDelayMs = 5_000 } = options
  let cursor = options.after ?? 0
  let failures = 0
  let lastError: unknown
  while (true) {
    try {
      const response = await open(cursor)
      for await (const item of readToolEvents(response.body!)) {
        if (item === streamDone) return
        // A transient chunk has no number of its own (it carries the one before it): never a replay.
        const transient = (item.event as { transient?: unknown }).transient === true
        if (item.seq <= cursor && !transient) continue
        cursor = item.seq
        failures = 0
        yield item
      }
      lastError = new Error('The event stream ended before the run did')
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error
      if (!isTransient(error)) throw error
      lastError = error
    }
    failures += 1
    if (failures > maxRetries) {
      throw new ToolClientError('CONNECTION_LOST', `Lost the event stream after ${maxRetries} reconnections (last event ${cursor})`, { cause: lastError })
    }
    await sleep(Math.min(retryDelayMs * 2 ** (failures - 1), maxRetryDelayMs), signal)
  }
}
