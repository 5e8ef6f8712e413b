import type { EventStore } from '@modelcontextprotocol/server'

/** How many messages a session keeps for replay, across its streams (oldest dropped first). */
const maxEvents = 500

/** One session's SSE events, so a client that lost a call's stream reconnects with `Last-Event-ID` (2025-11-25 resumability; a store also makes the SDK send priming events). An evicted object keeps none. */
export function createMemoryEventStore(): EventStore {
  const events: { id: string; streamId: string; message: unknown }[] = []
  let next = 0
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${++next}`
      events.push({ id, streamId, message })
      if (events.length > maxEvents) events.splice(0, events.length - maxEvents)
      return id
    },
    async getStreamIdForEventId(eventId) {
      return events.find((event) => event.id === eventId)?.streamId
    },
    async replayEventsAfter(lastEventId, { send }) {
      const index = events.findIndex((event) => event.id === lastEventId)
      if (index === -1) throw new Error(`No event ${lastEventId} in this session`)
      const { streamId } = events[index]!
      for (const event of events.slice(index + 1)) {
        // The priming event (an empty message) is a marker, not something to resend.
        if (event.streamId === streamId && Object.keys(event.message as object).length > 0) await send(event.id, event.message as never)
      }
      return streamId
    },
  }
}
