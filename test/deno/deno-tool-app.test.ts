// The tool app under Deno, in process (app.request), runs in Deno KV: the same routes, SSE and
// durable runs as on Workers, exactly once, and still there after a restart.
import assert from 'node:assert/strict'
import { createTool, type ToolEvent } from 'toolroute'
import { z } from 'zod'
import { readSse, typesOf } from '../fixtures/read-sse.ts'
import { eventually, exampleTools, executions, withApp } from './harness.ts'

const json = async (response: Response) => [response.status, await response.json()] as const
const runIdOf = (response: Response) => response.headers.get('x-run-id') ?? ''

Deno.test('GET /tools lists every tool in tools/, GET /tools/:id one of them', () =>
  withApp(async ({ request }) => {
    const [status, body] = await json(await request('/tools'))
    assert.equal(status, 200)
    const ids = (body.tools as { id: string }[]).map((tool) => tool.id)
    for (const tool of exampleTools) assert.ok(ids.includes(tool.id), `${tool.id} is listed`)
    const [one, weather] = await json(await request('/tools/weather-tool'))
    assert.equal(one, 200)
    assert.equal(weather.inputSchema.type, 'object')
    const [missing, error] = await json(await request('/tools/no-such-tool'))
    assert.equal(missing, 404)
    assert.equal(error.error.code, 'TOOL_NOT_FOUND')
  }))

Deno.test('POST /tools/:id with SSE streams the lifecycle; JSON answers the output; bad input is 400', () =>
  withApp(async ({ request }) => {
    const response = await request('/tools/weather-tool', { json: { location: 'Lisbon' }, sse: true })
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'text/event-stream')
    assert.equal(response.headers.get('x-vercel-ai-ui-message-stream'), 'v1')
    assert.ok(runIdOf(response))
    const sse = await readSse(response)
    assert.ok(sse.done, 'the stream ends with [DONE]')
    assert.deepEqual(typesOf(sse.events), ['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])
    assert.deepEqual(sse.events[4], { type: 'tool-output-available', toolCallId: response.headers.get('x-tool-call-id'), output: { location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' } })

    const [status, body] = await json(await request('/tools/weather-tool', { json: { location: 'Porto' } }))
    assert.equal(status, 200)
    assert.equal(body.status, 'completed')
    assert.deepEqual(body.modelOutput, { type: 'json', value: body.output })

    const [bad, error] = await json(await request('/tools/weather-tool', { json: { location: 7 } }))
    assert.equal(bad, 400)
    assert.equal(error.error.code, 'INPUT_VALIDATION_FAILED')
    // A stateless call is not stored.
    const [gone] = await json(await request(`/runs/${body.runId}`))
    assert.equal(gone, 404)
  }))

Deno.test('approve: the run waits in Deno KV, executes once on approval, and a second approve is 409', () =>
  withApp(async ({ request }) => {
    const call = await request('/tools/delete-file', { json: { path: '/tmp/report.txt' } })
    const [status, waiting] = await json(call)
    assert.equal(status, 202)
    assert.equal(waiting.status, 'approval-required')
    assert.match(waiting.approvalId, /^approval_/)
    const [, stored] = await json(await request(`/runs/${waiting.runId}`))
    assert.equal(stored.status, 'approval-required')

    const approved = await request(`/runs/${waiting.runId}/approve`, { json: {}, sse: true })
    assert.equal(approved.status, 200)
    const sse = await readSse(approved)
    assert.deepEqual(typesOf(sse.events), ['start', 'data-tool-approval-response', 'tool-output-available', 'finish'])
    assert.deepEqual(sse.events[1], { type: 'data-tool-approval-response', data: { approvalId: waiting.approvalId, approved: true } })
    // Event ids continue the run's log: the first step had 6 events.
    assert.equal(sse.messages[0]!.id, '7')

    const [, done] = await json(await request(`/runs/${waiting.runId}`))
    assert.equal(done.status, 'completed')
    assert.deepEqual(done.output, { deleted: '/tmp/report.txt' })
    const [again, conflict] = await json(await request(`/runs/${waiting.runId}/approve`, { json: {} }))
    assert.equal(again, 409)
    assert.equal(conflict.error.code, 'RUN_STATE_CONFLICT')
  }))

Deno.test('approve: 12 racing approvals of one run execute it exactly once', () =>
  withApp(async ({ request }) => {
    const key = crypto.randomUUID()
    const [, waiting] = await json(await request('/tools/counted-approval', { json: { key } }))
    const answers = await Promise.all(Array.from({ length: 12 }, () => request(`/runs/${waiting.runId}/approve`, { json: {} }).then(json)))
    const statuses = answers.map(([status]) => status).sort()
    assert.deepEqual(statuses, [200, ...Array(11).fill(409)])
    assert.deepEqual(answers.find(([status]) => status === 200)![1].output, { key, executions: 1 })
    assert.equal(executions.get(key), 1)
  }))

Deno.test('decline: the tool never executes; approving afterwards is 409', () =>
  withApp(async ({ request }) => {
    const key = crypto.randomUUID()
    const [, waiting] = await json(await request('/tools/counted-approval', { json: { key } }))
    const [status, declined] = await json(await request(`/runs/${waiting.runId}/decline`, { json: { reason: 'not today' } }))
    assert.equal(status, 200)
    assert.deepEqual({ status: declined.status, reason: declined.reason }, { status: 'declined', reason: 'not today' })
    const [late] = await json(await request(`/runs/${waiting.runId}/approve`, { json: {} }))
    assert.equal(late, 409)
    assert.equal(executions.get(key), undefined)
  }))

/** A POST as `curl -X POST` sends it: no body, no content-length, no content-type, over real HTTP. */
async function barePost(port: number, path: string, body = ''): Promise<[number, any]> {
  const connection = await Deno.connect({ hostname: '127.0.0.1', port })
  const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${body ? `transfer-encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` : '\r\n'}`
  await connection.write(new TextEncoder().encode(head))
  const text = await new Response(connection.readable).text()
  const [status] = text.match(/^HTTP\/1\.1 (\d+)/)!.slice(1)
  return [Number(status), JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))]
}

Deno.test('approve and decline without a body or a content type answer as on Workers (200), over Deno.serve', () =>
  withApp(async ({ app, request }) => {
    // Deno.serve hands such a request an empty body stream where workerd has none: it must not be a 415.
    const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, app.fetch)
    try {
      const [, approval] = await json(await request('/tools/counted-approval', { json: { key: crypto.randomUUID() } }))
      const [approved, done] = await barePost(server.addr.port, `/runs/${approval.runId}/approve`)
      assert.deepEqual([approved, done.status], [200, 'completed'])
      const [, other] = await json(await request('/tools/counted-approval', { json: { key: crypto.randomUUID() } }))
      const [declined, answer] = await barePost(server.addr.port, `/runs/${other.runId}/decline`)
      assert.deepEqual([declined, answer.status], [200, 'declined'])
      // A body that is there still has to say it is JSON.
      const [, third] = await json(await request('/tools/counted-approval', { json: { key: crypto.randomUUID() } }))
      const [refused, error] = await barePost(server.addr.port, `/runs/${third.runId}/decline`, '{"reason":"x"}')
      assert.deepEqual([refused, error.error.code], [415, 'UNSUPPORTED_MEDIA_TYPE'])
      const [, still] = await json(await request(`/runs/${third.runId}`))
      assert.equal(still.status, 'approval-required')
    } finally {
      await server.shutdown()
    }
  }))

Deno.test('resume: bad resume data is 400 and leaves the run suspended; good data completes it once', () =>
  withApp(async ({ request }) => {
    const [status, suspended] = await json(await request('/tools/book-flight', { json: { from: 'LIS', to: 'JFK' } }))
    assert.equal(status, 202)
    assert.equal(suspended.status, 'suspended')
    assert.deepEqual(suspended.suspendPayload.seats, ['12A', '12B', '14C'])
    assert.equal(suspended.resumeSchema.type, 'object')

    const [bad, error] = await json(await request(`/runs/${suspended.runId}/resume`, { json: { resumeData: { seat: '99Z' } } }))
    assert.equal(bad, 400)
    assert.equal(error.error.code, 'RESUME_VALIDATION_FAILED')
    const [, still] = await json(await request(`/runs/${suspended.runId}`))
    assert.equal(still.status, 'suspended')

    const resumed = await request(`/runs/${suspended.runId}/resume`, { json: { resumeData: { seat: '12A' } }, sse: true })
    const sse = await readSse(resumed)
    assert.deepEqual(typesOf(sse.events), ['start', 'data-tool-resumed', 'tool-output-available', 'finish'])
    assert.deepEqual((sse.events[2] as Extract<ToolEvent, { type: 'tool-output-available' }>).output, { confirmation: 'LIS-JFK-12A', seat: '12A' })
    const [again] = await json(await request(`/runs/${suspended.runId}/resume`, { json: { resumeData: { seat: '12B' } } }))
    assert.equal(again, 409)
  }))

Deno.test('resume: 12 racing resumes of one run execute it exactly once', () =>
  withApp(async ({ request }) => {
    const key = crypto.randomUUID()
    const [, suspended] = await json(await request('/tools/counted-suspend', { json: { key } }))
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => request(`/runs/${suspended.runId}/resume`, { json: { resumeData: { code: `c${String(index).padStart(3, '0')}` } } }).then(json)))
    assert.deepEqual(answers.map(([status]) => status).sort(), [200, ...Array(11).fill(409)])
    assert.equal(executions.get(key), 1)
  }))

Deno.test('a run outlives its process: approved and resumed by a new app over the same database', async () => {
  const dir = await Deno.makeTempDir({ prefix: 'toolroute-restart-' })
  const kvPath = `${dir}/runs.sqlite3`
  const ids: { approval: string; suspended: string } = { approval: '', suspended: '' }
  try {
  await withApp(async ({ request }) => {
    ids.approval = (await json(await request('/tools/delete-file', { json: { path: '/a' } })))[1].runId
    ids.suspended = (await json(await request('/tools/book-flight', { json: { from: 'LIS', to: 'OPO' } })))[1].runId
  }, { kvPath })
  await withApp(async ({ request }) => {
    const [approved, done] = await json(await request(`/runs/${ids.approval}/approve`, { json: {} }))
    assert.equal(approved, 200)
    assert.deepEqual(done.output, { deleted: '/a' })
    const [resumed, booked] = await json(await request(`/runs/${ids.suspended}/resume`, { json: { resumeData: { seat: '14C' } } }))
    assert.equal(resumed, 200)
    assert.deepEqual(booked.output, { confirmation: 'LIS-OPO-14C', seat: '14C' })
    // The replay holds both processes' events, numbered as one log (the raw view drops none).
    const replay = await readSse(await request(`/runs/${ids.suspended}/events?view=raw`, { sse: true }))
    assert.deepEqual(replay.messages.filter((message) => message.id).map((message) => Number(message.id)), replay.messages.filter((message) => message.id).map((_, index) => index + 1))
    assert.equal(replay.events[0]!.type, 'start')
    assert.equal(replay.events.at(-1)!.type, 'finish')
  }, { kvPath })
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test('background: the call answers running, the run completes through the Deno KV queue, events replay from Last-Event-ID', () =>
  withApp(async ({ request }) => {
    const [status, started] = await json(await request('/tools/generate-report', { json: { month: '2026-01', delayMs: 10 } }))
    assert.equal(status, 202)
    assert.equal(started.status, 'running')
    const live = await readSse(await request(`/runs/${started.runId}/events`, { sse: true }))
    assert.equal(live.events.at(-1)!.type, 'finish')
    assert.ok(typesOf(live.events).includes('tool-output-available'))
    const [, run] = await json(await request(`/runs/${started.runId}`))
    assert.equal(run.status, 'completed')
    assert.deepEqual(run.output, { month: '2026-01', rows: 31 })

    const lastIds = live.messages.filter((message) => message.id).map((message) => Number(message.id))
    const replay = await readSse(await request(`/runs/${started.runId}/events`, { sse: true, headers: { 'last-event-id': '3' } }))
    assert.deepEqual(replay.messages.filter((message) => message.id).map((message) => Number(message.id)), lastIds.filter((id) => id > 3))
  }))

Deno.test('runs answer only their principal; an expired approval is 410', () =>
  withApp(async ({ request }) => {
    const [, waiting] = await json(await request('/tools/delete-file', { json: { path: '/p' }, headers: { authorization: 'Bearer alice' } }))
    const [other, hidden] = await json(await request(`/runs/${waiting.runId}`, { headers: { authorization: 'Bearer mallory' } }))
    assert.equal(other, 404)
    assert.equal(hidden.error.code, 'RUN_NOT_FOUND')
    const [steal] = await json(await request(`/runs/${waiting.runId}/approve`, { json: {}, headers: { authorization: 'Bearer mallory' } }))
    assert.equal(steal, 404)
    const [owner] = await json(await request(`/runs/${waiting.runId}`, { headers: { authorization: 'Bearer alice' } }))
    assert.equal(owner, 200)
  }).then(() =>
    withApp(async ({ request }) => {
      const [, waiting] = await json(await request('/tools/delete-file', { json: { path: '/q' } }))
      const [status, error] = await json(await request(`/runs/${waiting.runId}/approve`, { json: {} }))
      assert.equal(status, 410)
      assert.equal(error.error.code, 'RUN_EXPIRED')
    }, { ttlMs: 0 }),
  ))

Deno.test('settled runs are deleted after their retention by the scheduled sweep, and leave the listing', () =>
  withApp(async ({ request }) => {
    const headers = { authorization: 'Bearer alice' }
    const listed = async () => ((await json(await request('/runs', { headers })))[1].runs as { runId: string }[]).map((run) => run.runId)
    const [, waiting] = await json(await request('/tools/delete-file', { json: { path: '/r' }, headers }))
    assert.deepEqual(await listed(), [waiting.runId])
    await request(`/runs/${waiting.runId}/decline`, { json: {}, headers })
    await eventually(() => request(`/runs/${waiting.runId}`, { headers }).then((response) => response.status), (status) => status === 404, 'the declined run to be swept')
    assert.deepEqual(await listed(), [])
  }, { retentionMs: 0 }))

const chatty = createTool({
  id: 'chatty',
  description: 'Needs approval, then writes `count` values',
  inputSchema: z.object({ count: z.number() }),
  requireApproval: true,
  execute: async ({ count }, { writer }) => {
    for (let index = 0; index < count; index++) {
      await writer.write({ index })
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    return { done: true }
  },
})

Deno.test('runLimits: a step past maxEvents fails naming it, its log kept; GET /runs/:id answers a page and its cursor', () =>
  withApp(
    async ({ request }) => {
      const started = await request('/tools/chatty', { json: { count: 100 } })
      const runId = runIdOf(started)
      await started.body?.cancel()
      const message = "The run's event log reached its limit of 20 events (runLimits.maxEvents)"
      const [status, body] = await json(await request(`/runs/${runId}/approve`, { method: 'POST', json: {} }))
      assert.equal(status, 500)
      assert.deepEqual(body, { error: { code: 'EXECUTION_FAILED', message } })
      const [, whole] = await json(await request(`/runs/${runId}?limit=1000`))
      assert.equal(whole.status, 'failed')
      assert.equal(whole.transcriptCursor, undefined)
      assert.ok(whole.transcript.length <= 22)
      assert.deepEqual(whole.transcript.at(-2), { type: 'tool-output-error', toolCallId: whole.toolCallId, errorText: message })
      const pages: { transcript: unknown[]; transcriptCursor?: string }[] = [(await json(await request(`/runs/${runId}?limit=4`)))[1]]
      while (pages.at(-1)!.transcriptCursor) pages.push((await json(await request(`/runs/${runId}?limit=4&before=${pages.at(-1)!.transcriptCursor}`)))[1])
      assert.ok(pages.length >= 5)
      assert.deepEqual(pages.reverse().flatMap((page) => page.transcript), whole.transcript)
    },
    { tools: [chatty], runLimits: { maxEvents: 20 } },
  ))
