// createTestClient outside the pool: over any fetch (here toolroute/server's app, in process),
// where settle follows the run's events to their end. Runs in the node and workers projects.
import { describe, expect, it } from 'vitest'
import { createToolApp } from '../server.ts'
import { deleteFile } from '../../tools/delete-file.ts'
import { generateReport } from '../../tools/generate-report.ts'
import { createTestClient } from './create-test-client.ts'
import { inWorkerd } from './vitest-pool.ts'

const app = createToolApp({ tools: [generateReport, deleteFile] })
const client = createTestClient<[typeof generateReport, typeof deleteFile]>({ baseUrl: 'http://tools.test', fetch: async (request) => app.request(request) })

describe('createTestClient over a fetch', () => {
  it('settle follows a background run to its end', async () => {
    const call = await client.call('generate-report', { month: '2026-03', delayMs: 0 })
    expect(call.status).toBe('running')
    expect(await client.settle(call.runId)).toMatchObject({ status: 'completed', output: { month: '2026-03', rows: 31 } })
  })

  it('settle answers a run waiting for a human at once', async () => {
    const call = await client.call('delete-file', { path: 'a.txt' })
    expect(await client.settle(call.runId)).toMatchObject({ status: 'approval-required' })
  })

  it.skipIf(inWorkerd())('with no options outside workerd it says what to pass', () => {
    expect(() => createTestClient()).toThrow(/pass \{ fetcher \} or \{ baseUrl \}/)
  })
})
