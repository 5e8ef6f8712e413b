// The RunIndex contract, run against every backend: memory (node), the Durable Object index and
// Workers KV (workerd), Deno KV (deno test). Framework-agnostic like the run store's contract.
import type { RunIndex } from '../../src/runs/run-index.ts'
import type { ContractRunner } from './run-store-contract.ts'

function equal(actual: unknown, expected: unknown, message: string): void {
  const a = JSON.stringify(actual)
  const e = JSON.stringify(expected)
  if (a !== e) throw new Error(`${message}\n  expected: ${e}\n  actual:   ${a}`)
}

/** Run ids as the engine makes them (UUIDs), numbered so a failure reads. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** Registers the contract's tests for one backend; `fresh` gives an index no other test wrote to, with a unique principal prefix. */
export function defineRunIndexContract(name: string, fresh: () => Promise<{ index: RunIndex; principal: (who: string) => string }>, runner: ContractRunner): void {
  runner.test(`${name}: lists a principal's runs newest first, a page at a time, and no one else's`, async () => {
    const { index, principal } = await fresh()
    const alice = principal('alice')
    const bob = principal('bob')
    await index.add(alice, id(1), '2026-01-01T00:00:01.000Z')
    await index.add(alice, id(3), '2026-01-01T00:00:03.000Z')
    await index.add(alice, id(2), '2026-01-01T00:00:02.000Z')
    await index.add(bob, id(9), '2026-01-01T00:00:09.000Z')
    const first = await index.list(alice, { limit: 2 })
    equal(first.runIds, [id(3), id(2)], 'the first page is the two newest')
    if (first.nextCursor === undefined) throw new Error('a page with more after it names its cursor')
    // A run added after the first page was read does not shift the second.
    await index.add(alice, id(4), '2026-01-01T00:00:04.000Z')
    const second = await index.list(alice, { limit: 2, cursor: first.nextCursor })
    equal(second.runIds, [id(1)], 'the second page goes on after the first')
    equal(second.nextCursor, undefined, 'the last page has no cursor')
    equal((await index.list(bob, { limit: 10 })).runIds, [id(9)], "bob sees only bob's")
    equal((await index.list(principal('carol'), { limit: 10 })).runIds, [], 'a principal with no runs has none')
  })

  runner.test(`${name}: adding a run twice lists it once; a principal with odd characters is kept apart`, async () => {
    const { index, principal } = await fresh()
    const odd = principal('a:b/c d|e')
    await index.add(odd, id(5), '2026-01-01T00:00:05.000Z')
    await index.add(odd, id(5), '2026-01-01T00:00:05.000Z')
    equal((await index.list(odd, { limit: 10 })).runIds, [id(5)], 'one entry')
    equal((await index.list(principal('a'), { limit: 10 })).runIds, [], 'a prefix of the principal is another principal')
  })
}
