import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToolClient, type Fetcher, type SequencedEvent } from 'toolroute/client'
import type { generateReport } from '../../tools/generate-report.ts'
import { cutEventStream } from '../fixtures/cut-event-stream.ts'

const client = createToolClient<[typeof generateReport]>({ fetcher: SELF })

async function collect(events: AsyncIterable<SequencedEvent>): Promise<SequencedEvent[]> {
  const all: SequencedEvent[] = []
  for await (const entry of events) all.push(entry)
  return all
}

/** A service binding whose event streams break: the n-th connection after `cuts[n]` events. */
function flakyBinding(cuts: number[], mode: 'error' | 'end', onCut?: () => void) {
  const cursors: (string | null)[] = []
  const fetcher: Fetcher = {
    async fetch(input, init) {
      const request = new Request(input, init)
      const response = await SELF.fetch(request)
      if (!new URL(request.url).pathname.endsWith('/events')) return response
      cursors.push(request.headers.get('last-event-id'))
      const cut = cuts[cursors.length - 1]
      return cut === undefined ? response : cutEventStream(response, cut, { mode, ...(onCut ? { onCut } : {}) })
    },
  }
  return { fetcher, cursors }
}

describe('client.follow over a service binding', () => {
  for (const mode of ['error', 'end'] as const) {
    it(`reconnects after the connection ${mode === 'error' ? 'breaks' : 'ends early'} mid-run and yields every event once`, async () => {
      const call = await client.call('generate-report', { month: '2026-03', delayMs: 1500 })
      expect(call.status).toBe('running')
      // Where the run was at each cut, asked as the cut happens (the tool sleeps 1.5 s after its first log).
      const statusesAtCut: Promise<string>[] = []
      const flaky = flakyBinding([2, 2], mode, () => void statusesAtCut.push(client.getRun(call.runId).then((run) => run.status)))
      const followed = await collect(createToolClient({ fetcher: flaky.fetcher }).follow(call.runId, { retryDelayMs: 1 }))

      const full = await collect(client.follow(call.runId))
      expect(followed).toEqual(full)
      expect(new Set(followed.map((entry) => entry.seq)).size).toBe(followed.length)
      expect(followed.at(-1)?.event).toEqual({ type: 'finish', finishReason: 'stop' })
      expect(followed.at(-2)?.event).toMatchObject({ type: 'tool-output-available', output: { month: '2026-03', rows: 31 } })
      // Three connections: the first two cut, each reopened from the last event it delivered.
      expect(statusesAtCut).toHaveLength(2)
      expect(await statusesAtCut[0]).toBe('running')
      expect(flaky.cursors[0]).toBe('0')
      expect(Number(flaky.cursors[1])).toBeGreaterThan(0)
      expect(Number(flaky.cursors[2])).toBeGreaterThan(Number(flaky.cursors[1]))
    })
  }

  it('picks a background call’s stream back up when it drops', async () => {
    const flaky = flakyBinding([3], 'error')
    const streaming = createToolClient<[typeof generateReport]>({
      fetcher: {
        async fetch(input, init) {
          const request = new Request(input, init)
          if (request.method === 'POST') return cutEventStream(await SELF.fetch(request), 3)
          return flaky.fetcher.fetch(request)
        },
      },
    })
    const events = await collect(streaming.stream('generate-report', { month: '2026-04', delayMs: 300 }))
    const runId = (events[0]!.event as { messageMetadata: { runId: string } }).messageMetadata.runId
    expect(events).toEqual(await collect(client.follow(runId)))
    expect(flaky.cursors[0]).toBe(String(events[2]!.seq))
  })

  it('names a broken stream of a call that was not kept CONNECTION_LOST', async () => {
    const cutting = createToolClient({
      fetcher: {
        async fetch(input, init) {
          const request = new Request(input, init)
          const response = await SELF.fetch(request)
          return request.method === 'POST' ? cutEventStream(response, 2) : response
        },
      },
    })
    const seen: SequencedEvent[] = []
    const error = await (async () => {
      for await (const entry of cutting.stream('weather-tool', { location: 'Faro' })) seen.push(entry)
    })().then(() => undefined, (thrown: unknown) => thrown)
    expect(error).toMatchObject({ code: 'CONNECTION_LOST', runId: expect.any(String) })
    expect(seen.length).toBeLessThanOrEqual(2)
  })

  it('gives up with CONNECTION_LOST after maxRetries reconnections without progress', async () => {
    const call = await client.call('generate-report', { month: '2026-05', delayMs: 0 })
    let connections = 0
    const broken = createToolClient({
      fetcher: {
        fetch: async (input, init) => {
          const request = new Request(input, init)
          if (!request.url.includes('/events')) return SELF.fetch(request)
          connections += 1
          throw new TypeError('network down')
        },
      },
    })
    await expect(collect(broken.follow(call.runId, { maxRetries: 3, retryDelayMs: 1 }))).rejects.toMatchObject({ code: 'CONNECTION_LOST' })
    expect(connections).toBe(4)
  })

  it('does not retry an answer of the server', async () => {
    await expect(collect(client.follow('run_unknown', { retryDelayMs: 1 }))).rejects.toMatchObject({ code: 'RUN_NOT_FOUND', status: 404 })
  })

  it('stops when its signal aborts', async () => {
    const call = await client.call('generate-report', { month: '2026-06', delayMs: 2000 })
    const controller = new AbortController()
    const seen: SequencedEvent[] = []
    const following = (async () => {
      for await (const entry of client.follow(call.runId, { signal: controller.signal })) {
        seen.push(entry)
        if (entry.event.type === 'data-tool-log') controller.abort(new Error('enough'))
      }
    })()
    await expect(following).rejects.toThrow('enough')
    expect(seen.at(-1)?.event.type).toBe('data-tool-log')
    await client.cancel(call.runId)
  })
})
