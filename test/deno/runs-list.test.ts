// GET /runs under Deno (SPEC §16): the caller's runs from the Deno KV index the engine keeps, scoped by
// principal, filtered by status and tool, paged with cursors, each status change listed.
import assert from 'node:assert/strict'
import { withApp } from './harness.ts'

const as = (name: string) => ({ authorization: `Bearer ${name}` })

Deno.test('GET /runs: newest first, filtered and paged, per principal; 401 without one', () =>
  withApp(async ({ request }) => {
    const started: { runId: string; toolId: string }[] = []
    for (let n = 0; n < 7; n++) {
      const toolId = n % 2 ? 'counted-suspend' : 'counted-approval'
      const response = await request(`/tools/${toolId}`, { json: { key: `list-${n}` }, headers: as('alice') })
      assert.equal(response.status, 202)
      started.unshift({ runId: ((await response.json()) as { runId: string }).runId, toolId })
    }
    const read = async (query: string, who = 'alice') => {
      const ids: string[] = []
      let cursor: string | undefined
      do {
        const response = await request(`/runs?${query}${cursor ? `&cursor=${cursor}` : ''}`, { headers: as(who) })
        assert.equal(response.status, 200)
        const page = (await response.json()) as { runs: { runId: string }[]; cursor?: string }
        ids.push(...page.runs.map((run) => run.runId))
        cursor = page.cursor
      } while (cursor)
      return ids
    }
    assert.deepEqual(await read('limit=3'), started.map((run) => run.runId))
    assert.deepEqual(await read('limit=2&toolId=counted-suspend'), started.filter((run) => run.toolId === 'counted-suspend').map((run) => run.runId))
    const approved = started.find((run) => run.toolId === 'counted-approval')!
    assert.equal((await request(`/runs/${approved.runId}/approve`, { method: 'POST', headers: as('alice') })).status, 200)
    assert.deepEqual(await read('status=completed'), [approved.runId])
    assert.deepEqual(await read('status=approval-required,completed&limit=1'), started.filter((run) => run.toolId === 'counted-approval').map((run) => run.runId))
    assert.deepEqual(await read('', 'bob'), [])
    const anonymous = await request('/runs')
    assert.equal(anonymous.status, 401)
    assert.equal(((await anonymous.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED')
  }))
