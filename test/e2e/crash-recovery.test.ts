// Crash recovery (SPEC §12): `wrangler dev` killed with SIGKILL while a keyed call, an approved
// step and a background attempt are each mid-`execute`, then started again on the same persisted
// state. Nothing is stuck: within the lease (2 s here, TOOLROUTE_LEASE_MS in crash.wrangler.toml)
// the Durable Objects' alarms, not any request, settle the key as EXECUTION_FAILED interrupted
// and leave its run failed, fail the approved step (its follower gets the end), and start the
// background run's second attempt, marked in its log.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { eventually, stallThree, stalled } from '../fixtures/crash-probe.ts'
import { readSse } from '../fixtures/read-sse.ts'
import { startWranglerDev, type WranglerDev } from './wrangler-dev.ts'

const persistTo = mkdtempSync(join(tmpdir(), 'toolroute-crash-'))
const config = 'test/e2e/crash.wrangler.toml'
let server: WranglerDev | undefined

afterAll(async () => {
  await server?.kill()
  rmSync(persistTo, { recursive: true, force: true })
})

const owner = { authorization: 'Bearer crash-owner' }
const interrupted = { error: { code: 'EXECUTION_FAILED', message: 'The call was interrupted before it finished' } }

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...owner, ...headers }, body: JSON.stringify(body) })
const getRun = async (runId: string) => {
  const response = await fetch(`${server!.url}/runs/${runId}`, { headers: owner })
  return { status: response.status, body: (await response.json()) as { status?: string; error?: unknown } }
}

it('kill -9 mid-execute: the key answers interrupted, the approved step fails and its follower gets the end, the background run is retried with its attempts marked', async () => {
  server = await startWranglerDev({ persistTo, config })

  // A keyed call, an approved step and a background attempt (3 s each), all at work.
  const { key, keyedRunId, waiting, background } = await stallThree(server.url, owner, 3000)

  await server.kill()
  server = await startWranglerDev({ persistTo, config })

  // A follower of the approved run, from before the crash's end: the run's alarm ends its stream.
  const follower = readSse(await fetch(`${server.url}/runs/${waiting.runId}/events?view=raw`, { headers: owner, signal: AbortSignal.timeout(30_000) }))
  const followed = await follower
  expect(followed.done).toBe(true)
  expect(followed.events.slice(-2)).toEqual([
    { type: 'tool-output-error', toolCallId: expect.any(String), errorText: 'The run was interrupted before it finished' },
    { type: 'finish', finishReason: 'error' },
  ])
  expect(await getRun(waiting.runId)).toMatchObject({ status: 200, body: { status: 'failed', error: { code: 'EXECUTION_FAILED' } } })

  // The key's alarm stored its failed run: no request to the key was needed.
  const keyedRun = await eventually(() => getRun(keyedRunId), (run) => run.status === 200)
  expect(keyedRun).toMatchObject({ status: 200, body: { status: 'failed', error: interrupted.error } })
  // The key answers what happened, the same on every repeat; an SSE repeat replays the run's end.
  const repeat = await post('/tools/stalled-call', { ms: 60_000 }, { 'idempotency-key': key })
  expect(repeat.status).toBe(500)
  expect(repeat.headers.get('idempotent-replayed')).toBe('true')
  expect(repeat.headers.get('x-run-id')).toBe(keyedRunId)
  const body = await repeat.text()
  expect(JSON.parse(body)).toEqual(interrupted)
  expect(await (await post('/tools/stalled-call', { ms: 60_000 }, { 'idempotency-key': key })).text()).toBe(body)
  const replayed = await readSse(await post('/tools/stalled-call', { ms: 60_000 }, { 'idempotency-key': key, accept: 'text/event-stream' }))
  expect(replayed.events.map((event) => event.type)).toEqual(['start', 'tool-output-error', 'finish'])
  expect((await post('/tools/stalled-call', { ms: 1 }, { 'idempotency-key': key })).status).toBe(422)

  // The background run: its lapsed attempt counts, the second completes; the log says where it began.
  const done = await eventually(() => getRun(background.runId), (run) => run.body.status !== 'running')
  expect(done).toMatchObject({ status: 200, body: { status: 'completed', output: { waited: 3000 } } })
  const log = await readSse(await fetch(`${server.url}/runs/${background.runId}/events?view=raw`, { headers: owner }))
  const attempts = log.events.filter((event) => event.type === 'data-tool-attempt')
  expect(attempts.map((event) => event.data)).toEqual([{ attempt: 1, of: 2 }, { attempt: 2, of: 2 }])
  expect(log.events.filter(stalled)).toHaveLength(2)
  expect(log.events.filter((event) => event.type === 'tool-output-available')).toHaveLength(1)
  const ids = log.messages.filter((message) => message.data !== '[DONE]').map((message) => Number(message.id))
  expect(ids).toEqual(ids.map((_, index) => index + 1))
}, 120_000)
