// Durable runs survive a restart: runs left waiting in one `wrangler dev --persist-to DIR` are
// resumed and approved by the next one on the same directory, and complete.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { startWranglerDev, type WranglerDev } from './wrangler-dev.ts'
import { jsonRpcAnswer, modernToolCall } from '../fixtures/modern-mcp-call.ts'

const persistTo = mkdtempSync(join(tmpdir(), 'toolroute-runs-'))
const config = 'test/e2e/runs-restart.wrangler.toml'
let server: WranglerDev | undefined

afterAll(async () => {
  await server?.stop()
  rmSync(persistTo, { recursive: true, force: true })
})

const owner = { authorization: 'Bearer e2e-owner' }

async function post(path: string, body: unknown, headers: Record<string, string> = owner): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: response.status, body: await response.json() }
}

async function get(path: string, headers: Record<string, string> = owner): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server!.url}${path}`, { headers })
  return { status: response.status, body: await response.json() }
}

it('a suspended run and a run waiting for approval complete after wrangler dev restarts', async () => {
  server = await startWranglerDev({ persistTo, config })
  const suspended = await post('/tools/book-flight', { from: 'CDG', to: 'JFK' })
  expect(suspended.status).toBe(202)
  expect(suspended.body).toMatchObject({ status: 'suspended', suspendPayload: { seats: ['12A', '12B', '14C'] } })
  const waiting = await post('/tools/delete-file', { path: '/tmp/after-restart.txt' })
  expect(waiting.status).toBe(202)
  expect(waiting.body).toMatchObject({ status: 'approval-required' })
  const { runId: suspendedId } = suspended.body as { runId: string }
  const { runId: waitingId, approvalId } = waiting.body as { runId: string; approvalId: string }

  await server.stop()
  server = await startWranglerDev({ persistTo, config })

  expect(await get(`/runs/${suspendedId}`)).toMatchObject({ status: 200, body: { status: 'suspended', suspendPayload: suspended.body.suspendPayload } })
  expect(await get(`/runs/${suspendedId}`, { authorization: 'Bearer someone-else' })).toMatchObject({ status: 404, body: { error: { code: 'RUN_NOT_FOUND' } } })
  // A rejected resume after the restart still leaves the run suspended.
  expect(await post(`/runs/${suspendedId}/resume`, { resumeData: { seat: 'window' } })).toMatchObject({ status: 400, body: { error: { code: 'RESUME_VALIDATION_FAILED' } } })
  const resumed = await post(`/runs/${suspendedId}/resume`, { resumeData: { seat: '12A' } })
  expect(resumed).toMatchObject({ status: 200, body: { runId: suspendedId, status: 'completed', output: { confirmation: 'CDG-JFK-12A', seat: '12A' } } })

  const approved = await post(`/runs/${waitingId}/approve`, { approvalId })
  expect(approved).toMatchObject({ status: 200, body: { runId: waitingId, status: 'completed', output: { deleted: '/tmp/after-restart.txt' } } })
  expect(await post(`/runs/${waitingId}/approve`, { approvalId })).toMatchObject({ status: 409, body: { error: { code: 'RUN_STATE_CONFLICT' } } })

  // The whole log, both processes' events, replays under one numbering.
  const events = await fetch(`${server.url}/runs/${suspendedId}/events?view=raw`, { headers: owner })
  const ids = [...(await events.text()).matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))
  expect(ids).toEqual(ids.map((_, index) => index + 1))
  expect(ids.length).toBeGreaterThan(6)
})

it('a background run cut short by a wrangler dev restart is retried by its alarm and completes once', async () => {
  server ??= await startWranglerDev({ persistTo, config })
  const started = await post('/tools/generate-report', { month: '2026-11', delayMs: 5000 })
  expect(started).toMatchObject({ status: 202, body: { status: 'running' } })
  const { runId } = started.body as { runId: string }
  // Mid-attempt: the tool waits 5 s; the process goes away under it.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await server.stop()
  server = await startWranglerDev({ persistTo, config })
  // The attempt's lease lapses (2 s, TOOLROUTE_LEASE_MS) and its alarm retries the run; the retry takes 5 s.
  const deadline = Date.now() + 90_000
  let run = await get(`/runs/${runId}`)
  while (run.body.status === 'running' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    run = await get(`/runs/${runId}`)
  }
  expect(run).toMatchObject({ status: 200, body: { status: 'completed', output: { month: '2026-11', rows: 31 } } })
  const text = await (await fetch(`${server.url}/runs/${runId}/events?view=raw`, { headers: owner })).text()
  const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))
  expect(ids).toEqual(ids.map((_, index) => index + 1))
  expect(text.match(/"type":"tool-output-available"/g)).toHaveLength(1)
  expect(text.match(/"type":"finish"/g)).toHaveLength(1)
  // Two attempts began: the restart really cut the first one short.
  expect(text.match(/report started/g)).toHaveLength(2)
  expect(text.match(/"type":"data-tool-attempt","data":\{"attempt":\d,"of":2\}/g)).toEqual(['"type":"data-tool-attempt","data":{"attempt":1,"of":2}', '"type":"data-tool-attempt","data":{"attempt":2,"of":2}'])
}, 150_000)

it('MCP tasks (2025-11-25) outlive a wrangler dev restart: listed, read, cancelled and their results fetched by a new session', async () => {
  server ??= await startWranglerDev({ persistTo, config })
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client')
  const { legacyTasks } = await import('../fixtures/legacy-mcp-tasks.ts')
  const connect = async () => {
    const client = new Client({ name: 'restart-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`), { requestInit: { headers: owner } }))
    return client
  }
  const before = await connect()
  const create = (month: string, delayMs: number) => legacyTasks(before).create('generate-report', { month, delayMs }, { task: {} })
  const quick = await create('2026-01', 0)
  const slow = await create('2026-02', 5000)
  await before.close()

  await server.stop()
  server = await startWranglerDev({ persistTo, config })

  const after = await connect()
  const listed = (await legacyTasks(after).list()).tasks.map((task) => task.taskId)
  expect(listed).toEqual(expect.arrayContaining([quick.taskId, slow.taskId]))
  expect(listed.indexOf(slow.taskId)).toBeLessThan(listed.indexOf(quick.taskId))
  const result = await legacyTasks(after).result(quick.taskId)
  expect(result.structuredContent).toEqual({ month: '2026-01', rows: 31 })
  expect(await legacyTasks(after).get(quick.taskId)).toMatchObject({ status: 'completed' })
  expect(await legacyTasks(after).cancel(slow.taskId)).toMatchObject({ taskId: slow.taskId, status: 'cancelled' })
  expect(await get(`/runs/${slow.taskId}`)).toMatchObject({ status: 200, body: { status: 'cancelled' } })
  await after.close()
}, 120_000)

/** A 2026-07-28 `tools/call` sent by hand (no session), as the owner; its JSON-RPC answer. */
const modernCall = async (name: string, args: Record<string, unknown>, retry: Record<string, unknown> = {}) =>
  jsonRpcAnswer(await fetch(`${server!.url}/mcp`, modernToolCall(name, args, retry, owner)))

it('an MCP 2026-07-28 approval asked before a restart is answered after it: the tool executes once', async () => {
  server ??= await startWranglerDev({ persistTo, config })
  const asked = await modernCall('delete-file', { path: '/tmp/mcp-after-restart.txt' })
  expect(asked.result).toMatchObject({ resultType: 'input_required' })
  const { requestState, inputRequests } = asked.result as { requestState: string; inputRequests: Record<string, unknown> }
  const [question] = Object.keys(inputRequests)

  await server.stop()
  server = await startWranglerDev({ persistTo, config })

  // The state is sealed with TOOLROUTE_MCP_STATE_KEY (the config's [vars]), so the new process opens it.
  const answer = { requestState, inputResponses: { [question!]: { action: 'accept', content: { approved: true } } } }
  const answered = await modernCall('delete-file', { path: '/tmp/mcp-after-restart.txt' }, answer)
  expect(answered.result.structuredContent).toEqual({ deleted: '/tmp/mcp-after-restart.txt' })
  const { runId } = answered.result._meta['toolroute/run'] as { runId: string }
  // The same answer again finds the run settled: it is not executed a second time.
  const again = await modernCall('delete-file', { path: '/tmp/mcp-after-restart.txt' }, answer)
  expect(again.result.structuredContent).toEqual({ deleted: '/tmp/mcp-after-restart.txt' })
  const events = await (await fetch(`${server.url}/runs/${runId}/events?view=raw`, { headers: owner })).text()
  expect(events.match(/"type":"tool-output-available"/g)).toHaveLength(1)
  expect(await get(`/runs/${runId}`)).toMatchObject({ status: 200, body: { status: 'completed' } })
}, 120_000)
