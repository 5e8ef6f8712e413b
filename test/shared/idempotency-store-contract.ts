// The one contract every IdempotencyStore backend passes: memory (Node), Durable Objects
// (workerd), Deno KV (deno test). Framework-agnostic, like the RunStore contract: it takes the
// runner's `test` and asserts with its own helpers.
import type { IdempotencyClaim, IdempotencyScope, IdempotencyStore, IdempotentAnswer } from '../../src/idempotency/idempotency-store.ts'

export interface ContractRunner {
  test: (name: string, fn: () => Promise<void>) => void
}

class ContractError extends Error {
  override name = 'ContractError'
}

function equal(actual: unknown, expected: unknown, message: string): void {
  const a = JSON.stringify(actual)
  const e = JSON.stringify(expected)
  if (a !== e) throw new ContractError(`${message}\n  expected: ${e}\n  actual:   ${a}`)
}

const answer = (body: unknown, status = 200): IdempotentAnswer => ({ status, body: JSON.stringify(body), runId: crypto.randomUUID(), toolCallId: 'call_1' })

const claim = (principal: string | null = 'alice'): IdempotencyClaim => ({ runId: crypto.randomUUID(), toolCallId: 'call_1', toolId: 'slow-tool', principal })

/**
 * Defines the contract's tests. `make` gives a store; each test uses keys of its own. Optional
 * `expire` makes the retention pass, and `lapse` a lease's time (not the retention), for a store
 * whose clock the suite controls.
 */
export function defineIdempotencyStoreContract(name: string, make: () => IdempotencyStore, runner: ContractRunner, options: { expire?: () => void; lapse?: () => void } = {}): void {
  const { test } = runner
  const scope = (principal: string | null = 'alice'): IdempotencyScope => ({ principal, key: `key-${crypto.randomUUID()}` })

  test(`${name}: the first begin is new, a repeat while pending is a conflict, another fingerprint is reused`, async () => {
    const store = make()
    const key = scope()
    equal(await store.begin(key, 'f1'), { state: 'new' }, 'first begin')
    equal(await store.begin(key, 'f1'), { state: 'conflict' }, 'repeat while pending')
    equal(await store.begin(key, 'f2'), { state: 'reused' }, 'another body while pending')
  })

  test(`${name}: after complete, a repeat replays the answer exactly; another fingerprint is reused`, async () => {
    const store = make()
    const key = scope()
    await store.begin(key, 'f1')
    const done = answer({ runId: 'r', status: 'completed', output: { text: 'zoë ✓ 🚀', nested: [1, { a: null }] } })
    await store.complete(key, 'f1', done)
    equal(await store.begin(key, 'f1'), { state: 'replay', answer: done }, 'replay')
    equal(await store.begin(key, 'f1'), { state: 'replay', answer: done }, 'second replay')
    equal(await store.begin(key, 'f2'), { state: 'reused' }, 'another body after completion')
  })

  test(`${name}: an answer of 1 MiB comes back whole`, async () => {
    const store = make()
    const key = scope()
    await store.begin(key, 'f1')
    const big = answer({ text: 'a'.repeat(768 * 1024), wide: 'é€'.repeat(64 * 1024) })
    await store.complete(key, 'f1', big)
    const begun = await store.begin(key, 'f1')
    if (begun.state !== 'replay') throw new ContractError(`expected a replay, got ${begun.state}`)
    equal(begun.answer.body.length, big.body.length, 'body length')
    if (begun.answer.body !== big.body) throw new ContractError('the body changed')
  })

  test(`${name}: release frees a pending key for a new request; release by another fingerprint or after completion does nothing`, async () => {
    const store = make()
    const key = scope()
    await store.begin(key, 'f1')
    await store.release(key, 'f2')
    equal(await store.begin(key, 'f1'), { state: 'conflict' }, 'still held after a foreign release')
    await store.release(key, 'f1')
    equal(await store.begin(key, 'f2'), { state: 'new' }, 'free after release')
    const done = answer({ ok: true })
    await store.complete(key, 'f2', done)
    await store.release(key, 'f2')
    equal(await store.begin(key, 'f2'), { state: 'replay', answer: done }, 'a completed key is not released')
  })

  test(`${name}: complete by another fingerprint does nothing`, async () => {
    const store = make()
    const key = scope()
    await store.begin(key, 'f1')
    await store.complete(key, 'f2', answer({ wrong: true }))
    equal(await store.begin(key, 'f1'), { state: 'conflict' }, 'still pending')
  })

  test(`${name}: keys are per principal (null is a principal of its own)`, async () => {
    const store = make()
    const key = scope('alice')
    await store.begin(key, 'f1')
    equal(await store.begin({ principal: 'bob', key: key.key }, 'f1'), { state: 'new' }, 'bob')
    equal(await store.begin({ principal: null, key: key.key }, 'f1'), { state: 'new' }, 'no principal')
    equal(await store.begin({ principal: 'alice', key: `${key.key} ` }, 'f1'), { state: 'new' }, 'another key')
  })

  test(`${name}: 50 racing begins with one key: exactly one is new`, async () => {
    const store = make()
    const key = scope()
    const results = await Promise.all(Array.from({ length: 50 }, () => store.begin(key, 'f1')))
    equal(results.filter((result) => result.state === 'new').length, 1, 'new')
    equal(results.filter((result) => result.state === 'conflict').length, 49, 'conflicts')
  })

  test(`${name}: a claimed key holds a lease its request renews while pending; renewal is refused once the key is not pending under that fingerprint`, async () => {
    const store = make()
    const key = scope()
    const begun = await store.begin(key, 'f1', claim())
    if (begun.state !== 'new' || !(begun.renewEveryMs! > 0)) throw new ContractError(`expected new with renewEveryMs, got ${JSON.stringify(begun)}`)
    equal(await store.renew!(key, 'f1'), true, 'renewed while pending')
    equal(await store.renew!(key, 'f2'), false, 'another fingerprint')
    equal(await store.renew!(scope(), 'f1'), false, 'an unknown key')
    await store.complete(key, 'f1', answer({ ok: true }))
    equal(await store.renew!(key, 'f1'), false, 'after completion')
  })

  if (options.lapse) {
    const lapse = options.lapse
    test(`${name}: a lease not renewed lapses: the key answers EXECUTION_FAILED interrupted on every repeat, and its late renewal and completion lose`, async () => {
      const store = make()
      const key = scope()
      const claimed = claim()
      await store.begin(key, 'f1', claimed)
      lapse()
      const interrupted = { status: 500, body: JSON.stringify({ error: { code: 'EXECUTION_FAILED', message: 'The call was interrupted before it finished' } }), runId: claimed.runId, toolCallId: 'call_1' }
      equal(await store.begin(key, 'f1'), { state: 'replay', answer: interrupted }, 'after the lapse')
      equal(await store.renew!(key, 'f1'), false, 'a late renewal')
      await store.complete(key, 'f1', answer({ late: true }))
      equal(await store.begin(key, 'f1'), { state: 'replay', answer: interrupted }, 'a late completion changes nothing')
      equal(await store.begin(key, 'f2'), { state: 'reused' }, 'another body')
    })

    test(`${name}: a lease renewed in time does not lapse`, async () => {
      const store = make()
      const key = scope()
      await store.begin(key, 'f1', claim())
      equal(await store.renew!(key, 'f1'), true, 'renewed')
      equal(await store.begin(key, 'f1'), { state: 'conflict' }, 'still executing')
    })
  }

  if (options.expire) {
    const expire = options.expire
    test(`${name}: past the retention a key is forgotten, pending or done`, async () => {
      const store = make()
      const pending = scope()
      const done = scope()
      await store.begin(pending, 'f1')
      await store.begin(done, 'f1')
      await store.complete(done, 'f1', answer({ ok: true }))
      expire()
      equal(await store.begin(pending, 'f2'), { state: 'new' }, 'pending key after retention')
      equal(await store.begin(done, 'f2'), { state: 'new' }, 'done key after retention')
    })
  }
}
