// GET /runs (SPEC §16) through the real Worker: Durable Objects (each principal's index object) and
// Workers KV (under /kv/), scoped by principal, filtered, paged; the same index MCP tasks/list reads.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToolClient } from 'toolroute/client'
import type { RunList, RunSummary } from 'toolroute/client'
import { origin } from './http-client.ts'
import { as, errorOf, runAction, start } from './run-client.ts'

const listRuns = (base: string, query: string, auth?: string) => SELF.fetch(`${origin}${base}/runs${query}`, { headers: auth ? as(auth) : {} })
async function pages(base: string, query: string, auth: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = []
  let cursor: string | undefined
  let count = 0
  do {
    const response = await listRuns(base, `?${query}${cursor ? `&cursor=${cursor}` : ''}`, auth)
    expect(response.status).toBe(200)
    const page = (await response.json()) as RunList
    ids.push(...page.runs.map((run) => run.runId))
    cursor = page.cursor
    count++
  } while (cursor !== undefined && count < 50)
  return { ids, pages: count }
}

for (const [store, base] of [['Durable Objects', ''], ['Workers KV', '/kv']] as const) {
  describe(`GET /runs on ${store}`, () => {
    it("lists the caller's runs newest first as summaries; another principal sees none; no principal gets 401", async () => {
      const alice = `alice-${crypto.randomUUID()}`
      const first = await start('delete-file', { path: '/a' }, { base, auth: alice })
      const second = await start('multi-round', { rounds: 1 }, { base, auth: alice })
      const response = await listRuns(base, '', alice)
      expect(response.status).toBe(200)
      const { runs, cursor } = (await response.json()) as RunList
      expect(cursor).toBeUndefined()
      expect(runs.map((run) => run.runId)).toEqual([second.runId, first.runId])
      expect(runs[1]).toEqual({
        runId: first.runId,
        toolId: 'delete-file',
        toolCallId: first.toolCallId,
        status: 'approval-required',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        approvalId: first.approvalId,
        expiresAt: expect.any(String),
      } satisfies RunSummary)
      // Summaries only: no input, output or payloads.
      expect(Object.keys(runs[0]!).sort()).toEqual(['createdAt', 'expiresAt', 'runId', 'status', 'toolCallId', 'toolId', 'updatedAt'])
      expect(await (await listRuns(base, '', `bob-${crypto.randomUUID()}`)).json()).toEqual({ runs: [] })
      expect(await errorOf(await listRuns(base, ''))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    })

    it('a status change reaches the list: approved, declined, resumed', async () => {
      const auth = `carol-${crypto.randomUUID()}`
      const [approved, declined, waiting, suspended] = [
        await start('delete-file', { path: '/1' }, { base, auth }),
        await start('delete-file', { path: '/2' }, { base, auth }),
        await start('delete-file', { path: '/3' }, { base, auth }),
        await start('multi-round', { rounds: 1 }, { base, auth }),
      ]
      expect((await runAction(approved.runId, 'approve', undefined, { base, auth })).status).toBe(200)
      expect((await runAction(declined.runId, 'decline', { reason: 'no' }, { base, auth })).status).toBe(200)
      expect((await runAction(suspended.runId, 'resume', { resumeData: { answer: 'one' } }, { base, auth })).status).toBe(200)
      expect((await pages(base, 'status=approval-required', auth)).ids).toEqual([waiting.runId])
      expect((await pages(base, 'status=completed,declined', auth)).ids).toEqual([suspended.runId, declined.runId, approved.runId])
      expect((await pages(base, 'status=completed&toolId=delete-file', auth)).ids).toEqual([approved.runId])
    })

    it('filters by status and tool, with cursors, over more runs than a page; bad values answer 400', async () => {
      const auth = `dave-${crypto.randomUUID()}`
      const made: { runId: string; toolId: string }[] = []
      for (let n = 0; n < 23; n++) {
        const toolId = n % 3 === 0 ? 'multi-round' : 'delete-file'
        const { runId } = await start(toolId, toolId === 'multi-round' ? { rounds: 1 } : { path: `/${n}` }, { base, auth })
        made.unshift({ runId, toolId })
      }
      const all = await pages(base, 'limit=5', auth)
      expect(all.ids).toEqual(made.map((run) => run.runId))
      expect(all.pages).toBe(5)
      expect((await pages(base, 'limit=3&toolId=multi-round', auth)).ids).toEqual(made.filter((run) => run.toolId === 'multi-round').map((run) => run.runId))
      expect((await pages(base, 'limit=4&status=suspended', auth)).ids).toEqual(made.filter((run) => run.toolId === 'multi-round').map((run) => run.runId))
      expect((await pages(base, 'status=approval-required,suspended', auth)).ids).toEqual(made.map((run) => run.runId))
      expect((await pages(base, 'status=failed', auth)).ids).toEqual([])
      const first = (await (await listRuns(base, '', auth)).json()) as RunList
      expect(first.runs).toHaveLength(20)
      for (const query of ['?status=waiting', '?status=', '?limit=0', '?limit=101', '?limit=ten', '?cursor=not%20a%20cursor', '?toolId=']) {
        const error = await errorOf(await listRuns(base, query, auth))
        expect(error, query).toMatchObject({ status: 400, code: 'INPUT_VALIDATION_FAILED' })
        expect(error.issues?.length, query).toBe(1)
      }
    })
  })
}

describe('GET /runs and its clients', () => {
  it('toolroute/client listRuns reads the same pages', async () => {
    const auth = `erin-${crypto.randomUUID()}`
    const client = createToolClient({ fetcher: SELF, headers: as(auth) })
    const runs = [await start('delete-file', { path: '/x' }, { auth }), await start('multi-round', { rounds: 1 }, { auth }), await start('delete-file', { path: '/y' }, { auth })]
    const page = await client.listRuns({ status: ['approval-required', 'suspended'], limit: 2 })
    expect(page.runs.map((run) => run.runId)).toEqual([runs[2]!.runId, runs[1]!.runId])
    expect((await client.listRuns({ cursor: page.cursor! })).runs.map((run) => run.runId)).toEqual([runs[0]!.runId])
    expect((await client.listRuns({ toolId: 'multi-round', status: 'suspended' })).runs.map((run) => run.runId)).toEqual([runs[1]!.runId])
    await expect(createToolClient({ fetcher: SELF }).listRuns()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
  })

  it('a run started over MCP is listed for the same principal, beside MCP tasks/list', async () => {
    const authorization = `Bearer mcp-${crypto.randomUUID()}`
    const response = await SELF.fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'generate-report', arguments: { month: '2027-04', delayMs: 0 }, task: { ttl: 60_000 } } }),
    })
    const { result } = (await response.json()) as { result: { task: { taskId: string } } }
    const listed = (await (await SELF.fetch(`${origin}/runs?toolId=generate-report`, { headers: { authorization } })).json()) as RunList
    expect(listed.runs.map((run) => run.runId)).toEqual([result.task.taskId])
  })

  it('OpenAPI names the route, its query and its answers', async () => {
    const document = (await (await SELF.fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, { get?: { parameters: { name: string }[]; responses: Record<string, unknown> } }> }
    const route = document.paths['/runs']!.get!
    expect(route.parameters.map((parameter) => parameter.name)).toEqual(['status', 'toolId', 'limit', 'cursor'])
    expect(Object.keys(route.responses)).toEqual(['200', '400', '401'])
  })
})
