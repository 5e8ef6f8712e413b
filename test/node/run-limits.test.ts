// Bounded runs (SPEC §12) through toolroute/server's app, runs in memory: `runLimits` reaches the
// default engine, a foreground step past a limit fails naming it with its abortSignal aborted,
// transient chunks cost nothing, and GET /runs/:runId answers a page with its cursor.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolApp } from '../../src/server.ts'
import { createTool } from '../../src/runtime/create-tool.ts'
import { resolveRunLimits } from '../../src/runs/run-limits.ts'
import type { RunView } from '../../src/protocol/call-result.ts'

/** Resolves with the reason of the next abort a chatty step sees. */
let sawAbort: (reason: unknown) => void = () => {}
const nextAbort = () => new Promise<unknown>((resolve) => (sawAbort = resolve))
const chatty = createTool({
  id: 'chatty',
  description: 'Needs approval, then writes `stored` values and `transient` heartbeats',
  inputSchema: z.object({ stored: z.number(), transient: z.number() }),
  requireApproval: true,
  execute: async ({ stored, transient }, { writer, abortSignal }) => {
    for (let index = 0; index < transient; index++) await writer.custom({ type: 'data-heartbeat', data: { index }, transient: true })
    for (let index = 0; index < stored; index++) {
      if (abortSignal.aborted) {
        sawAbort(abortSignal.reason)
        throw abortSignal.reason
      }
      await writer.write({ index })
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    return { done: true }
  },
})

const app = createToolApp({ tools: [chatty], runLimits: { maxEvents: 30 } })
const json = { 'content-type': 'application/json' }

async function approved(input: { stored: number; transient: number }) {
  const started = await app.request('/tools/chatty', { method: 'POST', headers: json, body: JSON.stringify(input) })
  const { runId } = (await started.json()) as { runId: string }
  const response = await app.request(`/runs/${runId}/approve`, { method: 'POST', headers: json, body: '{}' })
  return { runId, response, body: (await response.json()) as Record<string, any> }
}
const view = async (path: string) => (await (await app.request(path)).json()) as RunView

describe('runLimits on the in-memory engine', () => {
  it('a step past maxEvents fails naming the limit, its abortSignal aborted, its log kept and ended', async () => {
    const message = "The run's event log reached its limit of 30 events (runLimits.maxEvents)"
    const abort = nextAbort()
    const { runId, response, body } = await approved({ stored: 100, transient: 0 })
    expect(response.status).toBe(500)
    expect(body).toEqual({ error: { code: 'EXECUTION_FAILED', message } })
    // The step ended with the refusal; the tool sees its signal aborted at its next check.
    expect(((await abort) as Error).message).toBe(message)
    const run = await view(`/runs/${runId}?limit=1000`)
    expect(run).toMatchObject({ status: 'failed', error: { code: 'EXECUTION_FAILED', message } })
    expect(run.transcript.length).toBeLessThanOrEqual(32)
    expect(run.transcript.slice(-2)).toEqual([{ type: 'tool-output-error', toolCallId: expect.any(String), errorText: message }, { type: 'finish', finishReason: 'error' }])
  })

  it('transient chunks are not stored and do not count', async () => {
    const { response, body } = await approved({ stored: 3, transient: 200 })
    expect(response.status).toBe(200)
    expect(body).toMatchObject({ status: 'completed', output: { done: true } })
  })

  it('GET /runs/:runId: the latest page, transcriptCursor while earlier events exist', async () => {
    const { runId } = await approved({ stored: 20, transient: 0 })
    const whole = await view(`/runs/${runId}`)
    expect(whole.transcriptCursor).toBeUndefined()
    const pages: RunView[] = [await view(`/runs/${runId}?limit=5`)]
    while (pages.at(-1)!.transcriptCursor) pages.push(await view(`/runs/${runId}?limit=5&before=${pages.at(-1)!.transcriptCursor}`))
    expect(pages.length).toBeGreaterThanOrEqual(5)
    for (const page of pages) expect(page.transcript.length).toBeLessThanOrEqual(5)
    expect(pages.reverse().flatMap((page) => page.transcript)).toEqual(whole.transcript)
  })

  it('limits that are not positive integers are refused at once', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => resolveRunLimits({ maxEvents: bad })).toThrow(/runLimits.maxEvents must be a positive integer/)
    expect(resolveRunLimits()).toEqual({ maxEvents: 10_000, maxEventBytes: 8 * 1024 * 1024 })
  })
})
