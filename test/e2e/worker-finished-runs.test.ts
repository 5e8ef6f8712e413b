// A Worker whose tools never wait, as a deploy builds it (SPEC §11): a fixture project with the
// default idempotency (keyed calls store their run) and tools that complete in their request, built
// by `toolroute build`, bundled by `wrangler deploy --dry-run` and served on workerd. Its entry passes
// the store of finished runs, and keyed calls, their repeats and the run routes answer as SPEC §9
// and §4 say.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { greet } from '../../bench/bundle/greet-sources.mjs'
import { fixtureProject, servedFixture } from './fixture-project.ts'

const project = fixtureProject(
  'finished-runs',
  {
    'tools/greet.ts': greet.zod,
    // Long enough for a repeat to arrive while it executes.
    'tools/slow.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'

export const slow = createTool({
  id: 'slow',
  description: 'Answers after a while',
  inputSchema: z.object({ n: z.number() }),
  execute: async ({ n }) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    return { n }
  },
})
`,
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ mcp: false, playground: false })\n`,
  },
  { idempotencyBinding: true },
)

const { url, post } = servedFixture(project)

describe('a deployed Worker whose tools never wait, with Idempotency-Key honoured', () => {
  it('is built with the store of finished runs', () => {
    const entry = readFileSync(join(project.dir, '.toolroute/worker.ts'), 'utf8')
    expect(entry).toContain('runStore: workerFinishedRunStore')
    expect(entry).not.toContain('workerRunStore')
    expect(entry).toContain('export class ToolRunObject extends worker.ToolRunObject {}')
  })

  it('a keyed call executes once: its JSON and SSE repeats answer what it answered, another body is 422', async () => {
    const key = crypto.randomUUID()
    const first = await post('/tools/greet', { name: 'Ada' }, { 'idempotency-key': key })
    expect(first.status).toBe(200)
    const body = await first.text()
    expect(JSON.parse(body)).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
    const runId = first.headers.get('x-run-id')

    const again = await post('/tools/greet', { name: 'Ada' }, { 'idempotency-key': key })
    expect([again.status, again.headers.get('idempotent-replayed'), again.headers.get('x-run-id'), await again.text()]).toEqual([200, 'true', runId, body])

    const replayed = await post('/tools/greet', { name: 'Ada' }, { 'idempotency-key': key, accept: 'text/event-stream' })
    expect([replayed.headers.get('idempotent-replayed'), replayed.headers.get('x-run-id')]).toEqual(['true', runId])
    const text = await replayed.text()
    expect(text.match(/"type":"[a-z-]+"/g)).toEqual(['"type":"start"', '"type":"tool-input-start"', '"type":"tool-input-delta"', '"type":"tool-input-available"', '"type":"tool-output-available"', '"type":"finish"'])
    expect(text).toContain('"output":{"message":"Hello, Ada!"}')
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)

    const reused = await post('/tools/greet', { name: 'Bo' }, { 'idempotency-key': key })
    expect(reused.status).toBe(422)
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('a repeat while the first still executes is 409 IDEMPOTENCY_CONFLICT; after it, the first answer', async () => {
    const key = crypto.randomUUID()
    const first = post('/tools/slow', { n: 1 }, { 'idempotency-key': key })
    await new Promise((resolve) => setTimeout(resolve, 500))
    const concurrent = await post('/tools/slow', { n: 1 }, { 'idempotency-key': key })
    expect(concurrent.status).toBe(409)
    expect(((await concurrent.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_CONFLICT')
    const answered = await first
    expect(answered.status).toBe(200)
    const after = await post('/tools/slow', { n: 1 }, { 'idempotency-key': key })
    expect([after.headers.get('idempotent-replayed'), after.headers.get('x-run-id'), await after.json()]).toEqual(['true', answered.headers.get('x-run-id'), await answered.json()])
  })

  it('the keyed call\'s run is read back, its events replayed; a step on it is 409, another id 404', async () => {
    const called = await post('/tools/greet', { name: 'Cy' }, { 'idempotency-key': crypto.randomUUID() })
    const runId = called.headers.get('x-run-id')!
    const run = await fetch(`${url()}/runs/${runId}`)
    expect(run.status).toBe(200)
    expect(await run.json()).toMatchObject({ runId, toolId: 'greet', status: 'completed', output: { message: 'Hello, Cy!' } })
    const events = await fetch(`${url()}/runs/${runId}/events`, { headers: { 'last-event-id': '4' } })
    expect(events.status).toBe(200)
    const text = await events.text()
    expect(text).toContain('id: 5\n')
    expect(text).not.toContain('id: 4\n')
    expect(text).toContain('"output":{"message":"Hello, Cy!"}')
    for (const step of ['approve', 'decline', 'cancel']) {
      const refused = await post(`/runs/${runId}/${step}`, {})
      expect(refused.status).toBe(409)
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RUN_STATE_CONFLICT')
    }
    const unknown = crypto.randomUUID()
    expect(await (await fetch(`${url()}/runs/${unknown}`)).json()).toEqual({ error: { code: 'RUN_NOT_FOUND', message: `Run ${unknown} not found` } })
    // An unkeyed call stores nothing.
    const unkeyed = await post('/tools/greet', { name: 'Di' })
    expect((await fetch(`${url()}/runs/${unkeyed.headers.get('x-run-id')}`)).status).toBe(404)
  })
})
