import type { SequencedEvent, ToolEvent } from '../protocol/tool-event.ts'
import type { RunHost, RunSegment } from '../runs/run-host.ts'

/** A run host that tells `onEvent` each event (and its `seq`) of its steps as they are read: later steps' progress. */
export function tapRunEvents(host: RunHost, onEvent: (event: ToolEvent, seq: number) => void): RunHost {
  async function* tap(events: AsyncIterable<SequencedEvent>): AsyncGenerator<SequencedEvent> {
    for await (const entry of events) {
      onEvent(entry.event, entry.seq)
      yield entry
    }
  }
  const tapped = (segment: RunSegment): RunSegment => ({ ...segment, events: tap(segment.events), abort: (reason) => segment.abort(reason) })
  // Spread first: what the host says of itself (its index, that it keeps no runs) stays true of it.
  // Its optional methods are bound by name: a host that is a class keeps them on its prototype.
  return {
    ...host,
    ...(host.answer && { answer: host.answer.bind(host) }),
    ...(host.list && { list: host.list.bind(host) }),
    open: (run, events) => host.open(run, events),
    approve: async (runId, caller) => tapped(await host.approve(runId, caller)),
    decline: async (runId, caller) => tapped(await host.decline(runId, caller)),
    resume: async (runId, caller) => tapped(await host.resume(runId, caller)),
    cancel: (runId, caller) => host.cancel(runId, caller),
    get: (runId, caller) => host.get(runId, caller),
    follow: async (runId, caller) => tap(await host.follow(runId, caller)),
  }
}
