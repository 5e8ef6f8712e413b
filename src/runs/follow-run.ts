import type { SequencedEvent } from '../protocol/tool-event.ts'
import type { LiveSubscription, RunNotifier } from './run-notifier.ts'
import { eventPage } from './run-limits.ts'
import type { RunStore } from './run-store.ts'
import { unpackInputEvents } from './stored-input-events.ts'

/**
 * A run's events after `after`, a page at a time, then live until it stops running, each transient
 * chunk after the stored event it followed. `early` is a step's own subscription, taken before it began.
 */
export async function* followRun(
  deps: { store: RunStore; notifier: RunNotifier },
  runId: string,
  after: number,
  signal?: AbortSignal,
  early?: LiveSubscription,
): AsyncGenerator<SequencedEvent> {
  const { store, notifier } = deps
  let cursor = after
  const subscription = early ?? notifier.subscribe(runId)
  subscription.taken = true
  const { transients } = subscription
  function* inOrder(entries: SequencedEvent[], last: boolean): Generator<SequencedEvent> {
    // A chunk whose place is unknown (its step had appended nothing yet) goes after what is stored now.
    for (const entry of entries) {
      while (transients.length > 0 && (transients[0]!.after ?? Infinity) < entry.seq) yield { seq: cursor, event: transients.shift()!.event }
      cursor = entry.seq
      yield entry
    }
    if (!last) return
    while (transients.length > 0 && (transients[0]!.after ?? cursor) <= cursor) yield { seq: cursor, event: transients.shift()!.event }
  }
  try {
    while (!signal?.aborted) {
      const change = notifier.nextChange(runId, signal)
      try {
        // The state first: a run no longer running has all its events stored, so one read after it is the end.
        const run = await store.get(runId)
        if (!run) return
        for (let full = true; full; ) {
          const page = await store.events(runId, cursor, eventPage.size)
          full = page.length === eventPage.size
          yield* inOrder(unpackInputEvents(run, page), !full)
        }
        if (run.status !== 'running') return
        await change.promise
      } finally {
        change.dispose()
      }
    }
  } finally {
    subscription.dispose()
  }
}
