// GET /runs on Durable Objects when the send of a run's index entry fails (SPEC §16, §12): the entry was
// stored with the run, in its object's own transaction, and the run's alarm sends it again, so a run
// that waits for a person is listed even when the index object did not get it at first. The run objects
// of FLAKY_INDEX_RUNS fail the first send of each run (test/workers/worker.ts).
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createWorker, workerRunStore } from 'toolroute/workers'
import type { RunList, RunSummary } from 'toolroute/client'
import { origin } from './http-client.ts'
import { as } from './run-client.ts'
import { tools } from '../../.toolroute/tools.ts'

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
const front = createWorker({ tools, mcp: false, idempotency: false, runStore: workerRunStore })
const flakyEnv = { ...env, TOOLROUTE_RUNS: env.FLAKY_INDEX_RUNS }
const request = (path: string, auth: string, body?: unknown, runsEnv = flakyEnv) =>
  front.fetch(
    new Request(`${origin}${path}`, body === undefined ? { headers: as(auth) } : { method: 'POST', headers: { 'content-type': 'application/json', ...as(auth) }, body: JSON.stringify(body) }),
    runsEnv,
    ctx,
  )
const listed = async (auth: string, runsEnv = flakyEnv) => ((await (await request('/runs', auth, undefined, runsEnv)).json()) as RunList).runs
const objectOf = (name: string, namespace = env.FLAKY_INDEX_RUNS) => namespace.get(namespace.idFromName(name))
const alarmOf = (runId: string) => runInDurableObject(objectOf(runId), (_instance, state) => state.storage.getAlarm())
const outboxOf = (runId: string) => runInDurableObject(objectOf(runId), (_instance, state) => state.storage.sql.exec('SELECT version FROM index_outbox').toArray())

describe('GET /runs on Durable Objects, when the index object misses a run', () => {
  it('a waiting run whose entry the index did not get is listed once its alarm sends it again', async () => {
    const auth = `erin-${crypto.randomUUID()}`
    const call = await request('/tools/delete-file', auth, { path: '/tmp/a' })
    // The call does not fail for it: the run is stored, its entry with it.
    expect(call.status).toBe(202)
    const { runId } = (await call.json()) as { runId: string }
    expect(await listed(auth)).toEqual([])
    expect(await outboxOf(runId)).toHaveLength(1)
    const retryAt = await alarmOf(runId)

    expect(await runDurableObjectAlarm(objectOf(runId))).toBe(true)
    const [run] = await listed(auth)
    expect(run).toMatchObject({ runId, status: 'approval-required', expiresAt: expect.any(String) })
    expect(await outboxOf(runId)).toEqual([])
    const expiresAt = run!.expiresAt!
    // Its alarm was the retry's, not the run's expiry a day away.
    expect(retryAt).toBeLessThan(Date.parse(expiresAt) - 60_000)
    // Sent, the run's own alarm is back: its expiry.
    expect(await alarmOf(runId)).toBe(Date.parse(expiresAt))
    // Another principal still sees nothing.
    expect(await listed(`frank-${crypto.randomUUID()}`)).toEqual([])
  })

  it('a late older entry never replaces a newer one, even of the same updatedAt', async () => {
    const auth = `gina-${crypto.randomUUID()}`
    const { runId } = (await (await request('/tools/delete-file', auth, { path: '/tmp/b' }, env)).json()) as { runId: string }
    const [waiting] = (await listed(auth, env)) as [RunSummary]
    expect((await request(`/runs/${runId}/approve`, auth, {}, env)).status).toBe(200)
    const [completed] = (await listed(auth, env)) as [RunSummary]
    expect(completed).toMatchObject({ runId, status: 'completed' })
    // The first send (version 1), arriving after the approval's: within one turn workerd's clock stands
    // still, so two changes may share `updatedAt`; the version orders them.
    const principal = await runInDurableObject(objectOf(runId, env.TOOLROUTE_RUNS), (_instance, state) => state.storage.sql.exec<{ principal: string }>("SELECT json_extract(record, '$.principal') AS principal FROM run").one().principal)
    const index = objectOf(`index:${principal}`, env.TOOLROUTE_RUNS) as unknown as { indexPut(entry: RunSummary, version?: number): Promise<unknown> }
    expect(await index.indexPut({ ...waiting, updatedAt: completed.updatedAt }, 1)).toEqual({ ok: true })
    expect(await listed(auth, env)).toEqual([completed])
  })
})
