// Crash recovery on Deno (SPEC §12): the Deno process (test/deno/crash-server.ts) killed with
// SIGKILL while a keyed call, an approved step and a background attempt are each mid-`execute`,
// then started again on the same Deno KV file. Within the lease (1.5 s there) the KV queue's
// sweeps, not any request, settle the key as interrupted and leave its run failed, fail the
// approved step (its follower gets the end), and start the background run's second attempt.
import assert from 'node:assert/strict'
import { eventually, stallThree } from '../fixtures/crash-probe.ts'
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

/** Starts the crash server on `kvPath`; `kill` is SIGKILL to that one process. */
async function start(kvPath: string) {
  const port = freePort()
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', '--unstable-kv', '--unstable-no-legacy-abort', '--allow-net', '--allow-read', '--allow-write', '--allow-env', 'test/deno/crash-server.ts', String(port), kvPath],
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
