// A run's history (SPEC §16, the playground's timeline): each status it took, with when, kept on the
// record by the engine (opened, then each transition that names a status) and shown by GET /runs/:id.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/tools.ts'
import { createToolApp } from '../../src/server.ts'

const approve = createTool({ id: 'approve', description: 'Needs approval', inputSchema: z.object({}), requireApproval: true, execute: async () => ({ done: true }) })
const ask = createTool({
  id: 'ask',
  description: 'Suspends once',
  inputSchema: z.object({}),
  resumeSchema: z.object({ answer: z.string() }),
  execute: async (_input, { resumeData, suspend }) => (resumeData ? { answer: resumeData.answer } : suspend({})),
})

describe("a run's history", () => {
  const app = createToolApp({ tools: [approve, ask] })
  const post = (path: string, body: unknown) => app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const started = async (toolId: string) => ((await (await post(`/tools/${toolId}`, {})).json()) as { runId: string }).runId
  const view = async (runId: string) => (await (await app.request(`/runs/${runId}`)).json()) as { createdAt: string; updatedAt: string; history?: { status: string; at: string }[] }
  const statusesOf = (run: Awaited<ReturnType<typeof view>>) => run.history?.map((change) => change.status)
  const inOrder = (run: Awaited<ReturnType<typeof view>>) => {
    const times = [run.createdAt, ...run.history!.map((change) => change.at), run.updatedAt].map(Date.parse)
    expect(times.every((time, index) => index === 0 || time >= times[index - 1]!)).toBe(true)
  }

  it('times the wait for approval and the step after it', async () => {
    const runId = await started('approve')
    expect(statusesOf(await view(runId))).toEqual(['approval-required'])
    expect((await post(`/runs/${runId}/approve`, {})).status).toBe(200)
    const run = await view(runId)
    expect(statusesOf(run)).toEqual(['approval-required', 'running', 'completed'])
    expect(run.history!.at(-1)!.at).toBe(run.updatedAt)
    inOrder(run)
  })

  it('times a suspension, a refused resume adding nothing, and the resumed step; a declined run ends declined', async () => {
    const runId = await started('ask')
    expect((await post(`/runs/${runId}/resume`, { resumeData: { answer: 1 } })).status).toBe(400)
    expect(statusesOf(await view(runId))).toEqual(['suspended'])
    expect((await post(`/runs/${runId}/resume`, { resumeData: { answer: 'yes' } })).status).toBe(200)
    inOrder(await view(runId))
    expect(statusesOf(await view(runId))).toEqual(['suspended', 'running', 'completed'])
    const declined = await started('approve')
    await post(`/runs/${declined}/decline`, {})
    expect(statusesOf(await view(declined))).toEqual(['approval-required', 'declined'])
  })
})
