// Who owns a run, a key and a stateless MCP request id under Deno (SPEC §12, §9): an app whose
// resolveRequestContext reads a session cookie, over Deno KV; the same findings as
// test/workers/principals.test.ts.
import assert from 'node:assert/strict'
import { createTool, type AnyTool } from 'toolroute'
import type { Context } from 'hono'
import { z } from 'zod'
import { jsonRpcAnswer } from '../fixtures/modern-mcp-call.ts'
import { testTools, withApp, type AppHandle } from './harness.ts'

const sessions: Record<string, string> = { 'sid-alice': 'alice', 'sid-bob': 'bob' }
const userOf = (c: Context) => sessions[/(?:^|;\s*)sid=([^;]+)/.exec(c.req.header('cookie') ?? '')?.[1] ?? '']
const as = (user: string) => ({ cookie: `sid=sid-${user}` })
const owned = { resolveRequestContext: (c: Context) => (userOf(c) ? { requestContext: { userId: userOf(c) }, principal: `user:${userOf(c)}` } : undefined) }

const whoAmI = createTool({
  id: 'who-am-i',
  description: 'Answers the request context it ran in',
  inputSchema: z.object({}),
  requestContextSchema: z.object({ userId: z.string() }),
  execute: async (_input, { requestContext }) => ({ userId: requestContext.get('userId') }),
})
/** Waits until aborted or released; records what happened under its key. */
const seen = new Map<string, string[]>()
const releases = new Map<string, () => void>()
const waits = createTool({
  id: 'waits',
  description: 'Waits for an abort or a release',
  inputSchema: z.object({ key: z.string() }),
  execute: async ({ key }, { abortSignal }) => {
    seen.set(key, ['started'])
    await new Promise<void>((resolve, reject) => {
      releases.set(key, resolve)
      abortSignal.addEventListener('abort', () => (seen.get(key)!.push('aborted'), reject(abortSignal.reason)), { once: true })
    })
    seen.get(key)!.push('finished')
    return { key }
  },
})
const tools: AnyTool[] = [...testTools, whoAmI, waits]

Deno.test("a cookie principal owns its runs: bob can neither read nor approve alice's run", () =>
  withApp(
    async ({ request }) => {
      const created = await request('/tools/delete-file', { json: { path: '/alice' }, headers: as('alice') })
      assert.equal(created.status, 202)
      const { runId } = await created.json()
      assert.equal((await request(`/runs/${runId}`, { headers: as('bob') })).status, 404)
      assert.equal((await request(`/runs/${runId}/approve`, { json: {}, headers: as('bob') })).status, 404)
      assert.equal((await request(`/runs/${runId}`)).status, 404)
      assert.equal((await (await request(`/runs/${runId}/approve`, { json: {}, headers: as('alice') })).json()).status, 'completed')
    },
    { tools, ...owned },
  ))

Deno.test("bob's request with alice's Idempotency-Key and body executes as his own", () =>
  withApp(
    async ({ request }) => {
      const keyed = (user: string) => request('/tools/who-am-i', { json: {}, headers: { ...as(user), 'idempotency-key': 'same-key' } })
      assert.deepEqual((await (await keyed('alice')).json()).output, { userId: 'alice' })
      const bob = await keyed('bob')
      assert.equal(bob.headers.get('idempotent-replayed'), null)
      assert.deepEqual((await bob.json()).output, { userId: 'bob' })
      assert.equal((await keyed('alice')).headers.get('idempotent-replayed'), 'true')
    },
    { tools, ...owned },
  ))

Deno.test('without a principal, the same key and body in another request context is 422, never the first answer', () => {
  const warn = console.warn
  console.warn = () => {}
  return withApp(
    async ({ request }) => {
      const keyed = (user: string) => request('/tools/who-am-i', { json: {}, headers: { ...as(user), 'idempotency-key': 'same-key' } })
      assert.equal((await keyed('alice')).status, 200)
      const bob = await keyed('bob')
      assert.equal(bob.status, 422)
      assert.equal((await bob.json()).error.code, 'IDEMPOTENCY_KEY_REUSED')
    },
    { tools, resolveRequestContext: (c: Context) => (userOf(c) ? { userId: userOf(c) } : undefined) },
  ).finally(() => (console.warn = warn))
})

/** A 2025 stateless MCP request. */
const mcp = (handle: AppHandle, body: unknown, headers: Record<string, string> = {}) =>
  handle.request('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  })
const call = (id: number, key: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'waits', arguments: { key } } })
const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } })
const started = async (key: string) => {
  while (!seen.get(key)?.includes('started')) await new Promise((resolve) => setTimeout(resolve, 5))
}

Deno.test("stateless MCP: nobody but the call's principal cancels it by its request id", () =>
  withApp(
    async (handle) => {
      // Anonymous: another anonymous caller's cancel of every low id reaches nothing.
      const anonymous = mcp(handle, call(1, 'anonymous'))
      await started('anonymous')
      for (const id of [0, 1, 2]) assert.equal((await mcp(handle, cancel(id))).status, 202)
      releases.get('anonymous')!()
      assert.equal((await anonymous).status, 200)
      // It ran to its end (the server's close after the answer may still fire its signal: too late).
      assert.deepEqual(seen.get('anonymous')!.slice(0, 2), ['started', 'finished'])

      // A cookie principal's call: bob's and an anonymous cancel miss it; alice's aborts it.
      const alices = mcp(handle, call(5, 'alice'), as('alice'))
      await started('alice')
      assert.equal((await mcp(handle, cancel(5), as('bob'))).status, 202)
      assert.equal((await mcp(handle, cancel(5))).status, 202)
      assert.deepEqual(seen.get('alice'), ['started'])
      assert.equal((await mcp(handle, cancel(5), as('alice'))).status, 202)
      await (await alices).text()
      assert.deepEqual(seen.get('alice'), ['started', 'aborted'])
    },
    { tools, ...owned, mcp: { sessions: false } },
  ))

Deno.test("an MCP session without a credential owns its tasks: its tasks/list lists them, another session's does not", () =>
  withApp(
    async (handle) => {
      const open = async () => {
        const capabilities = { elicitation: {} }
        const opened = await mcp(handle, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'deno', version: '1' } } })
        const session = { 'mcp-session-id': opened.headers.get('mcp-session-id')! }
        await opened.text()
        await (await mcp(handle, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text()
        return session
      }
      const mine = await open()
      const theirs = await open()
      const created = await jsonRpcAnswer(
        await mcp(handle, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'generate-report', arguments: { month: '2026-04', delayMs: 0 }, task: {} } }, mine),
      )
      const taskId = created.result.task.taskId as string
      const listed = async (session: Record<string, string>) =>
        ((await jsonRpcAnswer(await mcp(handle, { jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} }, session))).result.tasks as { taskId: string }[]).map((task) => task.taskId)
      assert.ok((await listed(mine)).includes(taskId))
      assert.deepEqual(await listed(theirs), [])
      assert.equal((await handle.request(`/runs/${taskId}`)).status, 404)
      assert.equal((await handle.request(`/runs/${taskId}`, { headers: mine })).status, 200)
    },
    { tools },
  ))
