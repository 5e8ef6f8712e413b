// Crash recovery on Deno (SPEC §12): the Deno process (test/deno/crash-server.ts) killed with
// SIGKILL while a keyed call, an approved step and a background attempt are each mid-`execute`,
// then started again on the same Deno KV file. Within the lease (1.5 s there) the KV queue's
// sweeps, not any request, settle the key as interrupted and leave its run failed, fail the
// approved step (its follower gets the end), and start the background run's second attempt.
import assert from 'node:assert/strict'
import { eventually, stallThree } from '../fixtures/crash-probe.ts'
import { Webhook } from 'standardwebhooks'
import { readSse } from '../fixtures/read-sse.ts'
import { repoRoot } from './harness.ts'

const owner = { authorization: 'Bearer crash-owner' }
const interrupted = { error: { code: 'EXECUTION_FAILED', message: 'The call was interrupted before it finished' } }

function freePort(): number {
  const listener = Deno.listen({ hostname: '127.0.0.1', port: 0 })
  const { port } = listener.addr
  listener.close()
  return port
}

/** Starts the crash server (or `script`, given `extra` arguments) on `kvPath`; `kill` is SIGKILL to that one process. */
async function start(kvPath: string, script = 'test/deno/crash-server.ts', ...extra: string[]) {
  const port = freePort()
  const child = new Deno.Command(Deno.execPath(), {
    // --allow-run: the webhook crash server's `crash-after-waiting` kills itself (Deno.kill).
    args: ['run', '--unstable-kv', '--unstable-no-legacy-abort', '--allow-net', '--allow-read', '--allow-write', '--allow-env', '--allow-run', script, String(port), kvPath, ...extra],
    cwd: repoRoot,
    env: { NO_COLOR: '1' },
    stdin: 'null',
    stdout: 'null',
    stderr: 'inherit',
  }).spawn()
  const url = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    try {
      const response = await fetch(`${url}/tools`)
      await response.body?.cancel()
      if (response.ok) break
    } catch {
      if (tries > 240) throw new Error('the crash server did not answer')
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  return {
    url,
    exited: child.status,
    async kill() {
      try {
        child.kill('SIGKILL')
      } catch {
        // gone already
      }
      await child.status
    },
  }
}

Deno.test('Deno, kill -9 mid-execute: the key answers interrupted, the approved step fails and its follower gets the end, the background run is retried with its attempts marked', async () => {
  const dir = await Deno.makeTempDir({ prefix: 'toolroute-crash-' })
  const kvPath = `${dir}/runs.sqlite3`
  let server = await start(kvPath)
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...owner, ...headers }, body: JSON.stringify(body) })
  const getRun = async (runId: string) => {
    const response = await fetch(`${server.url}/runs/${runId}`, { headers: owner })
    return { status: response.status, body: (await response.json()) as { status?: string; error?: unknown; output?: unknown } }
  }
  try {
    const { key, keyedRunId, waiting, background } = await stallThree(server.url, owner, 2000)

    await server.kill()
    server = await start(kvPath)

    const followed = await readSse(await fetch(`${server.url}/runs/${waiting.runId}/events?view=raw`, { headers: owner, signal: AbortSignal.timeout(30_000) }))
    assert.equal(followed.done, true)
    assert.deepEqual(followed.events.slice(-2).map((event) => event.type), ['tool-output-error', 'finish'])
    assert.deepEqual((await getRun(waiting.runId)).body.status, 'failed')

    const keyedRun = await eventually(() => getRun(keyedRunId), (run) => run.status === 200)
    assert.equal(keyedRun.body.status, 'failed')
    assert.deepEqual(keyedRun.body.error, interrupted.error)
    const repeat = await post('/tools/stalled-call', { ms: 60_000 }, { 'idempotency-key': key })
    assert.equal(repeat.status, 500)
    assert.equal(repeat.headers.get('x-run-id'), keyedRunId)
    const body = await repeat.text()
    assert.deepEqual(JSON.parse(body), interrupted)
    assert.equal(await (await post('/tools/stalled-call', { ms: 60_000 }, { 'idempotency-key': key })).text(), body)

    const done = await eventually(() => getRun(background.runId), (run) => run.body.status !== 'running')
    assert.equal(done.body.status, 'completed')
    const log = await readSse(await fetch(`${server.url}/runs/${background.runId}/events?view=raw`, { headers: owner }))
    assert.deepEqual(log.events.filter((event) => event.type === 'data-tool-attempt').map((event) => event.data), [{ attempt: 1, of: 2 }, { attempt: 2, of: 2 }])
    assert.equal(log.events.filter((event) => event.type === 'tool-output-available').length, 1)
  } finally {
    await server.kill()
    await Deno.remove(dir, { recursive: true }).catch(() => {})
  }
})

Deno.test('Deno, kill -9 while a webhook waits for its receiver: the restarted process delivers run.waiting from the database, once', async () => {
  const dir = await Deno.makeTempDir({ prefix: 'toolroute-webhook-crash-' })
  const kvPath = `${dir}/runs.sqlite3`
  // The receiver verifies each delivery with `standardwebhooks`; it is down (503) until the crash.
  let up = false
  const received: { id: string; type?: string; status: number }[] = []
  const receiver = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, async (request) => {
    const raw = await request.text()
    const body = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(raw, Object.fromEntries(request.headers)) as { type: string }
    received.push({ id: request.headers.get('webhook-id') ?? '', type: body.type, status: up ? 204 : 503 })
    return new Response(null, { status: up ? 204 : 503 })
  })
  const hook = `http://127.0.0.1:${receiver.addr.port}/hooks`
  let server = await start(kvPath, 'test/deno/webhook-crash-server.ts', hook)
  try {
    const call = await fetch(`${server.url}/tools/refund`, { method: 'POST', headers: { 'content-type': 'application/json', ...owner }, body: JSON.stringify({ order: 'A-1' }) })
    assert.equal(call.status, 202)
    const { runId } = (await call.json()) as { runId: string }
    // Killed once an attempt failed and its retry is stored and scheduled (no handler holds it mid-attempt).
    const kv = await Deno.openKv(kvPath)
    const pending = await eventually(
      async () => {
        const [delivery] = await Array.fromAsync(kv.list<{ id: string; attempt: number }>({ prefix: ['toolroute', 'webhooks'] }))
        const sweep = delivery && (await kv.get<{ claimedAt?: number }>(['toolroute', 'schedule', `webhook:${delivery.value.id}`])).value
        return delivery && delivery.value.attempt >= 1 && sweep && sweep.claimedAt === undefined ? delivery.value.id : undefined
      },
      (id) => id !== undefined,
    )
    kv.close()
    assert.ok(pending, 'a failed delivery waits for its next attempt')
    assert.ok(received.length >= 1 && received.every((entry) => entry.status === 503 && entry.id === pending))
    await server.kill()

    up = true
    server = await start(kvPath, 'test/deno/webhook-crash-server.ts', hook)
    await eventually(async () => received.filter((entry) => entry.status === 204).length, (count) => count >= 1)
    assert.equal((await fetch(`${server.url}/runs/${runId}/approve`, { method: 'POST', headers: owner })).status, 200)
    await eventually(async () => received.some((entry) => entry.type === 'run.settled' && entry.status === 204), Boolean)
    const taken = received.filter((entry) => entry.status === 204)
    assert.deepEqual(taken.map((entry) => [entry.type, entry.id === pending]), [['run.waiting', true], ['run.settled', false]])
  } finally {
    await server.kill()
    await receiver.shutdown()
    await Deno.remove(dir, { recursive: true }).catch(() => {})
  }
})

Deno.test('Deno, killed the moment the transition to approval-required commits: run.waiting and its index entry were stored in that commit; the restarted process lists the run to its principal and delivers run.waiting, once', async () => {
  const dir = await Deno.makeTempDir({ prefix: 'toolroute-webhook-atomic-' })
  const kvPath = `${dir}/runs.sqlite3`
  const received: { id: string; type: string; runId: string }[] = []
  const receiver = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, async (request) => {
    const body = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(await request.text(), Object.fromEntries(request.headers)) as { type: string; data: { runId: string } }
    received.push({ id: request.headers.get('webhook-id') ?? '', type: body.type, runId: body.data.runId })
    return new Response(null, { status: 204 })
  })
  const hook = `http://127.0.0.1:${receiver.addr.port}/hooks`
  // The server kills itself (SIGKILL) right after the commit that stores the run waiting: the call gets no answer.
  let server = await start(kvPath, 'test/deno/webhook-crash-server.ts', hook, 'crash-after-waiting')
  try {
    const call = await fetch(`${server.url}/tools/refund`, { method: 'POST', headers: { 'content-type': 'application/json', ...owner }, body: JSON.stringify({ order: 'A-1' }) }).then(
      (response) => response.status,
      () => 'cut off',
    )
    assert.equal(call, 'cut off')
    assert.equal((await server.exited).signal, 'SIGKILL')
    assert.equal(received.length, 0)
    const kv = await Deno.openKv(kvPath)
    const runs = (await Array.fromAsync(kv.list<string>({ prefix: ['toolroute', 'run'] }))).filter((entry) => entry.key.length === 3)
    const deliveries = await Array.fromAsync(kv.list<{ body: string }>({ prefix: ['toolroute', 'webhooks'] }))
    kv.close()
    assert.equal(runs.length, 1)
    const runId = String(runs[0]!.key[2])
    assert.equal(JSON.parse(runs[0]!.value).status, 'approval-required')
    assert.deepEqual(deliveries.map((entry) => JSON.parse(entry.value.body).type), ['run.waiting'], 'the delivery is stored in the commit that stored the run waiting')

    server = await start(kvPath, 'test/deno/webhook-crash-server.ts', hook)
    // The inbox a person reads (SPEC §16) holds the run that waits for them, and only for its principal.
    const listed = async (headers: Record<string, string>) => ((await (await fetch(`${server.url}/runs?status=approval-required`, { headers })).json()) as { runs: { runId: string; status: string }[] }).runs
    assert.deepEqual((await listed(owner)).map((run) => [run.runId, run.status]), [[runId, 'approval-required']])
    assert.deepEqual(await listed({ authorization: 'Bearer someone-else' }), [])
    await eventually(async () => received.length, (count) => count >= 1)
    assert.equal((await fetch(`${server.url}/runs/${runId}/approve`, { method: 'POST', headers: owner })).status, 200)
    await eventually(async () => received.some((entry) => entry.type === 'run.settled'), Boolean)
    assert.deepEqual(received.map((entry) => [entry.type, entry.runId]), [['run.waiting', runId], ['run.settled', runId]])
  } finally {
    await server.kill()
    await receiver.shutdown()
    await Deno.remove(dir, { recursive: true }).catch(() => {})
  }
})
