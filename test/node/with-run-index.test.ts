// withRunIndex over the real run engine and memory store: what tasks/list reads.
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
/** A background run waiting for approval (what MCP lists as a task); `background: false` for any other stored run. */
const waiting = (principal: string | null, runId = crypto.randomUUID(), background = true): RunRecord => {
  const at = new Date((clock += 1000)).toISOString()
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
  const added: string[] = []
  const counted = { ...index, add: (principal: string, runId: string, createdAt: string) => (added.push(runId), index.add(principal, runId, createdAt)) }
  const host = withRunIndex(createRunEngine({ drive: driveRuns(tools), store }), counted)
  return { store, host, added }
}

describe('withRunIndex', () => {
  it("lists a principal's runs newest first across pages, and nobody else's", async () => {
    const { host } = setup()
    const mine = [waiting('alice'), waiting('alice'), waiting('alice')]
    for (const run of mine) await host.open(run, [])
    await host.open(waiting('bob'), [])
    const first = await host.list!({ principal: 'alice' }, { limit: 2 })
    expect(first.runs.map((run) => run.runId)).toEqual([mine[2]!.runId, mine[1]!.runId])
    const second = await host.list!({ principal: 'alice' }, { limit: 2, cursor: first.nextCursor! })
    expect(second).toEqual({ runs: [expect.objectContaining({ runId: mine[0]!.runId, status: 'approval-required' })] })
    expect((await host.list!({ principal: 'carol' })).runs).toEqual([])
  })

  it('indexes background runs only: another stored run (an approval, a suspension, a keyed call) costs no index write', async () => {
    const { host, added } = setup()
    const task = waiting('alice')
    const approval = waiting('alice', crypto.randomUUID(), false)
    await host.open(task, [])
    await host.open(approval, [])
    expect(added).toEqual([task.runId])
    expect((await host.list!({ principal: 'alice' })).runs.map((run) => run.runId)).toEqual([task.runId])
    // Still readable as ever: only the listing leaves it out.
    expect((await host.get(approval.runId, { principal: 'alice' })).run.status).toBe('approval-required')
  })

  it('lists nothing for a caller without a principal, and indexes no run without one', async () => {
    const { host } = setup()
    await host.open(waiting(null), [])
    expect(await host.list!({ principal: null })).toEqual({ runs: [] })
  })

  it('skips runs deleted after their retention, and indexes nothing when the open fails', async () => {
    const { host, store } = setup()
    const gone = waiting('alice')
    const kept = waiting('alice')
    await host.open(gone, [])
    await host.open(kept, [])
    await store.delete(gone.runId)
    expect((await host.list!({ principal: 'alice' })).runs.map((run) => run.runId)).toEqual([kept.runId])
    // The same run id again: the store refuses it, and the index gains no second entry.
    await expect(host.open({ ...waiting('alice'), runId: kept.runId }, [])).rejects.toThrow()
    expect((await host.list!({ principal: 'alice' })).runs.map((run) => run.runId)).toEqual([kept.runId])
  })
})
