// The RunIndex contract, run against every backend: memory (node), the Durable Object index and
// Workers KV (workerd), Deno KV (deno test). Framework-agnostic like the run store's contract.
import type { RunStatus } from '../../src/protocol/call-result.ts'
import type { RunIndex, RunIndexEntry, RunQuery } from '../../src/runs/run-index.ts'
import type { ContractRunner } from './run-store-contract.ts'

function equal(actual: unknown, expected: unknown, message: string): void {
  const a = JSON.stringify(actual)
  const e = JSON.stringify(expected)
  if (a !== e) throw new Error(`${message}\n  expected: ${e}\n  actual:   ${a}`)
}

/** Run ids as the engine makes them (UUIDs), numbered so a failure reads. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()

/** Run `n` as listed: created at second `n`. */
const entry = (n: number, status: RunStatus = 'approval-required', toolId = 'approve-me', extra: Partial<RunIndexEntry> = {}): RunIndexEntry => ({
  runId: id(n),
  toolId,
  toolCallId: `call_${n}`,
  status,
  createdAt: at(n),
  updatedAt: at(n),
  ...extra,
})

/** Every page of a query, following cursors (pages of a filtering backend may be short). */
async function all(index: RunIndex, principal: string, query: Omit<RunQuery, 'cursor'>): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await index.list(principal, { ...query, ...(cursor !== undefined ? { cursor } : {}) })
    if (page.runs.length > query.limit) throw new Error(`a page holds at most its limit, got ${page.runs.length}`)
    ids.push(...page.runs.map((run) => run.runId))
    cursor = page.nextCursor
    if (++pages > 1000) throw new Error('the cursors never end')
  } while (cursor !== undefined)
  return { ids, pages }
}

/** Registers the contract's tests for one backend; `fresh` gives an index no other test wrote to, with a unique principal prefix. */
export function defineRunIndexContract(name: string, fresh: () => Promise<{ index: RunIndex; principal: (who: string) => string }>, runner: ContractRunner): void {
  runner.test(`${name}: lists a principal's runs newest first, a page at a time, and no one else's`, async () => {
    const { index, principal } = await fresh()
    const alice = principal('alice')
    const bob = principal('bob')
    for (const n of [1, 3, 2]) await index.put(alice, entry(n))
    await index.put(bob, entry(9))
    const first = await index.list(alice, { limit: 2 })
    equal(first.runs, [entry(3), entry(2)], 'the first page is the two newest, as put')
    if (first.nextCursor === undefined) throw new Error('a page with more after it names its cursor')
    // A run added after the first page was read does not shift the second.
    await index.put(alice, entry(4))
    const second = await index.list(alice, { limit: 2, cursor: first.nextCursor })
    equal(second.runs.map((run) => run.runId), [id(1)], 'the second page goes on after the first')
    equal(second.nextCursor, undefined, 'the last page has no cursor')
    equal((await index.list(bob, { limit: 10 })).runs.map((run) => run.runId), [id(9)], "bob sees only bob's")
    equal((await index.list(principal('carol'), { limit: 10 })).runs, [], 'a principal with no runs has none')
  })

  runner.test(`${name}: putting a run again replaces its entry (a status change); removing it lists it no more`, async () => {
    const { index, principal } = await fresh()
    const odd = principal('a:b/c d|e')
    await index.put(odd, entry(5))
    await index.put(odd, entry(5, 'completed', 'approve-me', { updatedAt: at(6) }))
    equal((await index.list(odd, { limit: 10 })).runs, [entry(5, 'completed', 'approve-me', { updatedAt: at(6) })], 'one entry, the newest')
    equal((await index.list(odd, { limit: 10, statuses: ['approval-required'] })).runs, [], 'listed under its new status only')
    equal((await index.list(principal('a'), { limit: 10 })).runs, [], 'a prefix of the principal is another principal')
    await index.remove(odd, entry(5))
    equal((await index.list(odd, { limit: 10 })).runs, [], 'removed')
  })

  runner.test(`${name}: filters by statuses, tool and background over more runs than a page, every run once`, async () => {
    const { index, principal } = await fresh()
    const alice = principal('alice')
    const statuses: RunStatus[] = ['approval-required', 'completed', 'suspended', 'failed']
    // 45 runs: statuses cycle, tools alternate, every fifth runs in the background.
    for (let n = 1; n <= 45; n++) await index.put(alice, entry(n, statuses[n % 4]!, n % 2 ? 'odd-tool' : 'even-tool', n % 5 === 0 ? { background: true } : {}))
    const newestFirst = (keep: (n: number) => boolean) => Array.from({ length: 45 }, (_, i) => 45 - i).filter(keep).map(id)
    equal((await all(index, alice, { limit: 7 })).ids, newestFirst(() => true), 'all, in pages of 7')
    equal((await all(index, alice, { limit: 4, statuses: ['approval-required'] })).ids, newestFirst((n) => n % 4 === 0), 'one status')
    equal((await all(index, alice, { limit: 3, statuses: ['suspended', 'approval-required'] })).ids, newestFirst((n) => n % 4 === 0 || n % 4 === 2), 'several statuses')
    equal((await all(index, alice, { limit: 5, toolId: 'odd-tool' })).ids, newestFirst((n) => n % 2 === 1), 'one tool')
    equal((await all(index, alice, { limit: 2, toolId: 'odd-tool', statuses: ['completed'] })).ids, newestFirst((n) => n % 2 === 1 && n % 4 === 1), 'a tool and a status')
    equal((await all(index, alice, { limit: 3, background: true })).ids, newestFirst((n) => n % 5 === 0), 'background runs (MCP tasks)')
    equal((await all(index, alice, { limit: 3, toolId: 'no-such-tool' })).ids, [], 'a tool with no runs')
    const page = await index.list(alice, { limit: 100 })
    equal(page.runs.length, 45, 'one page holds up to its limit')
    equal(page.nextCursor, undefined, 'and then no cursor')
  })
}
