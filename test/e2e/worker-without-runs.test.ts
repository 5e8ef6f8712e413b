// A Worker that keeps no runs, as a deploy builds it (SPEC §11): a fixture project whose config has
// `idempotency: false` and whose one tool completes in its request, built by `toolroute build`,
// bundled by `wrangler deploy --dry-run` and served on workerd with wrangler.toml's runs binding
// bound to the entry's ToolRunObject (a stand-in the entry declares, without the run engine). Its calls
// answer; no run can exist.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { greet } from '../../bench/bundle/greet-sources.mjs'
import { fixtureProject, servedFixture } from './fixture-project.ts'

const project = fixtureProject('no-runs', {
  'tools/greet.ts': greet.zod,
  'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ mcp: false, idempotency: false, playground: false })\n`,
})

const { url, post } = servedFixture(project)

describe('a deployed Worker whose calls cannot reach a run', () => {
  it('is built without the run store', () => {
    const entry = readFileSync(join(project.dir, '.toolroute/worker.ts'), 'utf8')
    expect(entry).not.toContain('workerRunStore')
    expect(entry).toContain('export class ToolRunObject extends DurableObject {')
    expect(entry).not.toContain('worker.ToolRunObject')
  })

  it('answers its calls, JSON and SSE, and bad input with its code; an Idempotency-Key is ignored', async () => {
    const called = await post('/tools/greet', { name: 'Ada' })
    expect(called.status).toBe(200)
    expect(await called.json()).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
    const streamed = await post('/tools/greet', { name: 'Bo' }, { accept: 'text/event-stream' })
    expect(await streamed.text()).toContain('"output":{"message":"Hello, Bo!"}')
    const keyed = [await post('/tools/greet', { name: 'Cy' }, { 'idempotency-key': 'k' }), await post('/tools/greet', { name: 'Cy' }, { 'idempotency-key': 'k' })]
    expect(keyed.map((response) => [response.status, response.headers.get('idempotent-replayed')])).toEqual([
      [200, null],
      [200, null],
    ])
    const bad = await post('/tools/greet', { name: '' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED' } })
  })

  it('answers 404 RUN_NOT_FOUND for the run of a call it served, and for any other id', async () => {
    const runId = (await post('/tools/greet', { name: 'Di' })).headers.get('x-run-id')!
    for (const id of [runId, crypto.randomUUID()]) {
      for (const response of [await fetch(`${url()}/runs/${id}`), await fetch(`${url()}/runs/${id}/events`), await post(`/runs/${id}/approve`, {}), await post(`/runs/${id}/cancel`, {})]) {
        expect(response.status).toBe(404)
        expect(await response.json()).toEqual({ error: { code: 'RUN_NOT_FOUND', message: `Run ${id} not found` } })
      }
    }
  })
})
