// The Deno KV scheduler: the Durable Object alarm of Deno. One pending sweep per run (the latest
// wins), delivered by the database's queue, and sent again after a crash lost it.
import assert from 'node:assert/strict'
import { createDenoKvScheduler } from 'toolroute/deno'
import { eventually } from './harness.ts'

async function withScheduler(fn: (kv: Deno.Kv, swept: string[], start: () => Promise<void>, scheduler: ReturnType<typeof createDenoKvScheduler>) => Promise<void>) {
  const kv = await Deno.openKv(':memory:')
  const swept: string[] = []
  const scheduler = createDenoKvScheduler(kv)
  try {
    await fn(kv, swept, () => scheduler.start(async (runId) => void swept.push(runId)), scheduler)
  } finally {
    kv.close()
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

Deno.test('scheduler: a due sweep runs once, and its pending entry is cleared', () =>
  withScheduler(async (kv, swept, start, scheduler) => {
    await start()
    await scheduler.schedule('run-a', Date.now())
    await eventually(async () => swept.length, (count) => count === 1, 'the sweep')
    assert.deepEqual(swept, ['run-a'])
    await eventually(async () => (await kv.get(['toolroute', 'schedule', 'run-a'])).versionstamp, (stamp) => stamp === null, 'the entry to be cleared')
  }))

Deno.test('scheduler: a later schedule replaces the pending one, as setAlarm does', () =>
  withScheduler(async (_kv, swept, start, scheduler) => {
    await start()
    await scheduler.schedule('run-b', Date.now() + 300)
    await scheduler.schedule('run-b', Date.now())
    await eventually(async () => swept.length, (count) => count >= 1, 'the sweep')
    // The first message is still delivered, past its delay, and must be dropped as stale.
    await pause(600)
    assert.deepEqual(swept, ['run-b'])
  }))

Deno.test('scheduler: start sends again sweeps a crash lost, and leaves those a live handler holds', () =>
  withScheduler(async (kv, swept, start) => {
    const now = Date.now()
    // Due, never delivered (its message died with the process that was handling it).
    await kv.set(['toolroute', 'schedule', 'lost'], { at: now - 1000, id: 'gone' })
    // Claimed by a handler that died a while ago.
    await kv.set(['toolroute', 'schedule', 'orphaned'], { at: now - 120_000, id: 'old', claimedAt: now - 120_000 })
    // Claimed just now: another process is sweeping it.
    await kv.set(['toolroute', 'schedule', 'busy'], { at: now - 10, id: 'live', claimedAt: now })
    // Not due yet: its message is still in the queue.
    await kv.set(['toolroute', 'schedule', 'later'], { at: now + 60_000, id: 'queued' })
    await start()
    await eventually(async () => swept.length, (count) => count >= 2, 'the lost sweeps')
    await pause(200)
    assert.deepEqual(swept.sort(), ['lost', 'orphaned'])
    assert.deepEqual((await kv.get(['toolroute', 'schedule', 'busy'])).value, { at: now - 10, id: 'live', claimedAt: now })
  }))

Deno.test('scheduler: a sweep that throws is logged and tried again, as a failed alarm is', () =>
  withScheduler(async (kv) => {
    const scheduler = createDenoKvScheduler(kv)
    const errors: string[] = []
    const original = console.error
    console.error = (message: string) => void errors.push(message)
    try {
      let calls = 0
      await scheduler.start(async () => {
        if (++calls === 1) throw new Error('store unavailable')
      })
      await scheduler.schedule('run-c', Date.now())
      await eventually(async () => calls, (count) => count === 2, 'the retry')
      assert.deepEqual(errors, ['toolroute: the sweep of run run-c failed; it will be tried again'])
      await eventually(async () => (await kv.get(['toolroute', 'schedule', 'run-c'])).versionstamp, (stamp) => stamp === null, 'the entry to be cleared')
    } finally {
      console.error = original
    }
  }))

Deno.test('scheduler: a long sweep renews its claim, so a process starting meanwhile leaves it alone', async () => {
  const dir = await Deno.makeTempDir({ prefix: 'toolroute-scheduler-' })
  const first = await Deno.openKv(`${dir}/runs.sqlite3`)
  const second = await Deno.openKv(`${dir}/runs.sqlite3`)
  try {
    const swept: string[] = []
    let finish!: () => void
    const finished = new Promise<void>((resolve) => (finish = resolve))
    const running = createDenoKvScheduler(first, { claimTimeoutMs: 150 })
    await running.start(async (runId) => {
      swept.push(`first:${runId}`)
      await finished
    })
    await running.schedule('long', Date.now())
    await eventually(async () => swept.length, (count) => count === 1, 'the long sweep to start')
    // Several claim timeouts later, a second process starts on the same database.
    await pause(500)
    await createDenoKvScheduler(second, { claimTimeoutMs: 150 }).start(async (runId) => void swept.push(`second:${runId}`))
    await pause(300)
    finish()
    await eventually(async () => (await first.get(['toolroute', 'schedule', 'long'])).versionstamp, (stamp) => stamp === null, 'the entry to be cleared')
    assert.deepEqual(swept, ['first:long'])
  } finally {
    first.close()
    second.close()
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test('scheduler: scheduleIn schedules with the operation it joins, only if that commits', () =>
  withScheduler(async (kv, swept, start, scheduler) => {
    await start()
    await kv.set(['guard'], 1)
    const stale = await kv.get(['guard'])
    await kv.set(['guard'], 2)
    // A lost compare-and-set: neither the write nor its sweep.
    assert.equal((await scheduler.scheduleIn(kv.atomic().check(stale).set(['written'], 'lost'), 'run-lost', Date.now()).commit()).ok, false)
    assert.equal((await scheduler.scheduleIn(kv.atomic().set(['written'], 'won'), 'run-won', Date.now()).commit()).ok, true)
    await eventually(async () => swept.length, (count) => count >= 1, 'the sweep')
    await pause(300)
    assert.deepEqual(swept, ['run-won'])
    assert.equal((await kv.get(['written'])).value, 'won')
    assert.equal((await kv.get(['toolroute', 'schedule', 'run-lost'])).versionstamp, null)
  }))
