// toolroute/client under Deno, over real HTTP (Deno.serve on a free port), against the Deno app
// with runs in Deno KV: calls, a streamed request body, approval, and follow across a dropped
// connection.
import assert from 'node:assert/strict'
import { createToolClient, ToolClientError, type SequencedEvent } from 'toolroute/client'
import { cutEventStream } from '../fixtures/cut-event-stream.ts'
import { withApp } from './harness.ts'

async function collect(events: AsyncIterable<SequencedEvent>): Promise<SequencedEvent[]> {
  const all: SequencedEvent[] = []
  for await (const entry of events) all.push(entry)
  return all
}

/** Serves the app on loopback for the length of `fn`. */
function withServer(fn: (baseUrl: string) => Promise<void>) {
  return withApp(async ({ app }) => {
    const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => {} }, (request) => app.fetch(request))
    try {
      await fn(`http://127.0.0.1:${server.addr.port}`)
    } finally {
      await server.shutdown()
    }
  })
}

Deno.test('client: call, stream and errors over Deno fetch', () =>
  withServer(async (baseUrl) => {
    const client = createToolClient({ baseUrl })
    assert.ok((await client.list()).some((tool) => tool.id === 'weather-tool'))
    const result = await client.call('weather-tool', { location: 'Lisbon' })
    assert.equal(result.status, 'completed')
    const events = await collect(client.stream('weather-tool', { location: 'Porto' }))
    assert.deepEqual(events.map((entry) => entry.event.type), ['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])
    const error = await client.call('weather-tool', { location: '' }).catch((thrown: unknown) => thrown)
    assert.ok(ToolClientError.isInstance(error))
    assert.equal(error.code, 'INPUT_VALIDATION_FAILED')
    assert.equal(error.status, 400)
  }))

Deno.test('client: an async iterable input is sent as it arrives', () =>
  withServer(async (baseUrl) => {
    const client = createToolClient({ baseUrl })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let sent = 0
    async function* pieces() {
      sent += 1
      yield '{"location":"Fa'
      await gate
      sent += 1
      yield 'ro"}'
    }
    const seen: SequencedEvent[] = []
    for await (const entry of client.stream('weather-tool', pieces())) {
      seen.push(entry)
      if (entry.event.type === 'tool-input-delta' && sent === 1) release()
    }
    const output = seen.find((entry) => entry.event.type === 'tool-output-available')?.event
    assert.deepEqual((output as { output: unknown }).output, { location: 'Faro', temperatureCelsius: 21, conditions: 'sunny' })
  }))

Deno.test('client: approve a run, then follow it through a dropped connection', () =>
  withServer(async (baseUrl) => {
    const client = createToolClient({ baseUrl })
    const call = await client.call('delete-file', { path: '/tmp/deno' })
    assert.equal(call.status, 'approval-required')
    const approved = await client.approve(call.runId)
    assert.deepEqual(approved.status === 'completed' && approved.output, { deleted: '/tmp/deno' })

    const followed: SequencedEvent[] = []
    const reconnections: { cursor: string | null; lastYielded: number | undefined }[] = []
    const flaky = createToolClient({
      baseUrl,
      fetch: async (request) => {
        const response = await fetch(request)
        if (!request.url.includes('/events')) return response
        reconnections.push({ cursor: request.headers.get('last-event-id'), lastYielded: followed.at(-1)?.seq })
        return reconnections.length === 1 ? cutEventStream(response, 3) : response
      },
    })
    for await (const entry of flaky.follow(call.runId, { retryDelayMs: 1 })) followed.push(entry)
    assert.deepEqual(followed, await collect(client.follow(call.runId)))
    assert.equal(reconnections.length, 2)
    assert.equal(reconnections[1]!.cursor, String(reconnections[1]!.lastYielded))
  }))
