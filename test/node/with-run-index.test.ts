// The one run index over the real run engine and memory store: every kept run of a principal, with
// each status change, is what GET /runs and MCP tasks/list read.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/runtime/create-tool.ts'
import { createRunEngine } from '../../src/runs/create-run-engine.ts'
import { driveRuns } from '../../src/runs/drive-runs.ts'
import { createMemoryRunIndex } from '../../src/runs/create-memory-run-index.ts'
import { withRunIndex } from '../../src/runs/with-run-index.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import { createMemoryRunStore } from '../../src/store/memory/memory-run-store.ts'

const approveMe = createTool({ id: 'approve-me', description: 'Needs approval', inputSchema: z.object({ n: z.number() }), requireApproval: true, execute: async ({ n }) => ({ n }) })
const tools = new Map([[approveMe.id, approveMe]])

let clock = Date.parse('2026-02-01T00:00:00.000Z')
/** A run waiting for approval; `background` for what MCP lists as a task. */
const waiting = (principal: string | null, background = false): RunRecord => {
  const at = new Date((clock += 1000)).toISOString()
  const runId = crypto.randomUUID()
  return {
    runId,
    toolId: 'approve-me',
    toolCallId: `call_${runId}`,
    principal,
    status: 'approval-required',
    approvalId: `approval_${runId}`,
    createdAt: at,
    updatedAt: at,
    input: { n: 1 },
    requestContext: {},
    ...(background ? { background: true } : {}),
  }
}

function setup() {
  const store = createMemoryRunStore()
  const index = createMemoryRunIndex()
  const host = withRunIndex(createRunEngine({ drive: driveRuns(tools), store, index }), index)
  return { store, host, index }
}
const ids = (page: { runs: { runId: string }[] }) => page.runs.map((run) => run.runId)

describe('the run index kept by the engine', () => {
  it("lists every kept run of a principal newest first across pages, and nobody else's", async () => {
    const { host } = setup()
    const mine = [waiting('alice'), waiting('alice', true), waiting('alice')]
    for (const run of mine) await host.open(run, [])
    await host.open(waiting('bob'), [])
    const first = await host.list!({ principal: 'alice' }, { limit: 2 })
    expect(ids(first)).toEqual([mine[2]!.runId, mine[1]!.runId])
    const second = await host.list!({ principal: 'alice' }, { limit: 2, cursor: first.nextCursor! })
    expect(second).toEqual({ runs: [expect.objectContaining({ runId: mine[0]!.runId, status: 'approval-required', approvalId: mine[0]!.approvalId })] })
    expect(ids(await host.list!({ principal: 'alice' }, { background: true }))).toEqual([mine[1]!.runId])
    expect((await host.list!({ principal: 'carol' })).runs).toEqual([])
  })

  it('moves a run to its new status when it changes: approved and completed, declined', async () => {
    const { host } = setup()
    const [approved, declined, left] = [waiting('alice'), waiting('alice'), waiting('alice')]
    for (const run of [approved, declined, left]) await host.open(run, [])
    await (await host.approve(approved.runId, { principal: 'alice' })).settled
    await (await host.decline(declined.runId, { principal: 'alice', reason: 'no' })).settled
    expect(ids(await host.list!({ principal: 'alice' }, { statuses: ['approval-required'] }))).toEqual([left.runId])
    expect(ids(await host.list!({ principal: 'alice' }, { statuses: ['completed', 'declined'] }))).toEqual([declined.runId, approved.runId])
    const listed = (await host.list!({ principal: 'alice' }, { statuses: ['completed'] })).runs[0]!
    expect(listed.updatedAt >= listed.createdAt).toBe(true)
  })

  it('lists nothing for a caller without a principal, and indexes no run without one', async () => {
    const { host, index } = setup()
    await host.open(waiting(null), [])
    expect(await host.list!({ principal: null })).toEqual({ runs: [] })
    expect(await index.list('null', { limit: 10 })).toEqual({ runs: [] })
  })

  it('drops a run deleted after its retention, and indexes nothing when the open fails', async () => {
    let now = clock + 10_000
    const index = createMemoryRunIndex()
    const host = withRunIndex(createRunEngine({ drive: driveRuns(tools), store: createMemoryRunStore(), index, retentionMs: 1000, now: () => now }), index)
    const [gone, kept] = [waiting('alice'), waiting('alice')]
    await host.open(gone, [])
    await host.open(kept, [])
    await (await host.decline(gone.runId, { principal: 'alice' })).settled
    now += 5000
    await expect(host.get(gone.runId, { principal: 'alice' })).rejects.toThrow()
    expect(ids(await host.list!({ principal: 'alice' }))).toEqual([kept.runId])
    // The same run id again: the store refuses it, and the index gains no second entry.
    await expect(host.open({ ...waiting('alice'), runId: kept.runId }, [])).rejects.toThrow()
    expect(ids(await host.list!({ principal: 'alice' }))).toEqual([kept.runId])
  })
})
