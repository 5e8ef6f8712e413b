// The one contract every RunStore backend passes: memory (Node), Durable Objects and Workers KV
// (workerd), Deno KV (deno test). Framework-agnostic on purpose: it takes the runner's `test`
// function and asserts with its own helpers, so it imports nothing but toolroute's types.
import type { SequencedEvent, ToolEvent } from '../../src/protocol/tool-event.ts'
import type { RunRecord } from '../../src/runs/run-record.ts'
import type { RunStore } from '../../src/runs/run-store.ts'

export interface ContractRunner {
  test: (name: string, fn: () => Promise<void>) => void
}

class ContractError extends Error {
  override name = 'ContractError'
}

function ok(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ContractError(message)
}

/** JSON with sorted keys: stored records go through JSON, where `undefined` fields vanish. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  )
}

function equal(actual: unknown, expected: unknown, message: string): void {
  const a = canonical(actual)
  const e = canonical(expected)
  if (a !== e) throw new ContractError(`${message}\n  expected: ${e}\n  actual:   ${a}`)
}

async function rejects(work: () => Promise<unknown>, message: string): Promise<void> {
  try {
    await work()
  } catch {
    return
  }
  throw new ContractError(message)
}

/** Rejects, with a message that says `mention`. */
async function rejectsNaming(work: () => Promise<unknown>, mention: string, message: string): Promise<void> {
  try {
    await work()
  } catch (error) {
    ok(error instanceof Error && error.message.includes(mention), `${message}: the error names ${mention} (got ${String(error)})`)
    return
  }
  throw new ContractError(message)
}

/** What `RunLimits.maxEventBytes` counts of an event: its JSON text in UTF-8. */
const bytesOf = (events: readonly ToolEvent[]) => events.reduce((sum, event) => sum + new TextEncoder().encode(JSON.stringify(event)).byteLength, 0)

const seqsOf = (events: SequencedEvent[]) => events.map((entry) => entry.seq)

const at = '2026-01-02T03:04:05.678Z'

/** A run with every field of RunRecord set, nested and unicode values included. */
function fullRecord(runId: string): RunRecord {
  return {
    runId,
    toolId: 'book-flight',
    toolCallId: 'call_0123456789abcdef01234567',
    principal: 'auth:8a3c',
    status: 'approval-required',
    createdAt: at,
    updatedAt: at,
    expiresAt: '2026-01-03T03:04:05.678Z',
    leaseUntil: '2026-01-02T03:04:35.678Z',
    history: [{ status: 'running', at }, { status: 'approval-required', at: '2026-01-02T03:04:06.001Z' }],
    input: { from: 'CDG', to: 'JFK', passengers: [{ name: 'Zoë', age: 31 }], note: null, flags: [true, false] },
    requestContext: { tenantId: 'acme', nested: { roles: ['admin'] } },
    approvalId: 'approval_00112233445566778899aabb',
    suspendPayload: { question: 'Which seat?', seats: ['12A', '12B'] },
    output: { confirmation: 'CDG-JFK-12A', seat: '12A' },
    modelOutput: { type: 'json', value: { confirmation: 'CDG-JFK-12A' } },
    error: { code: 'RESUME_VALIDATION_FAILED', message: 'bad seat', issues: [{ path: ['seat', 0], message: 'Invalid' }] },
    reason: 'not today',
    background: true,
    attempts: 2,
    askable: true,
    questions: { colour: { request: { message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } }, answer: { action: 'accept', content: { colour: 'teal' } } } },
  }
}

function waitingRecord(runId: string): RunRecord {
  return {
    runId,
    toolId: 'delete-file',
    toolCallId: 'call_aaaaaaaaaaaaaaaaaaaaaaaa',
    principal: null,
    status: 'approval-required',
    createdAt: at,
    updatedAt: at,
    expiresAt: '2026-01-03T03:04:05.678Z',
    input: { path: '/tmp/x' },
    requestContext: {},
    approvalId: 'approval_bbbbbbbbbbbbbbbbbbbbbbbb',
  }
}

const firstEvents = (runId: string): ToolEvent[] => [
  { type: 'start', messageMetadata: { runId, toolCallId: 'call_aaaaaaaaaaaaaaaaaaaaaaaa' } },
  { type: 'tool-input-start', toolCallId: 'call_aaaaaaaaaaaaaaaaaaaaaaaa', toolName: 'delete-file' },
  { type: 'tool-input-available', toolCallId: 'call_aaaaaaaaaaaaaaaaaaaaaaaa', toolName: 'delete-file', input: { path: '/tmp/x' } },
  { type: 'tool-approval-request', approvalId: 'approval_bbbbbbbbbbbbbbbbbbbbbbbb', toolCallId: 'call_aaaaaaaaaaaaaaaaaaaaaaaa' },
  { type: 'finish', finishReason: 'other' },
]

const logEvent = (message: string): ToolEvent => ({ type: 'data-tool-log', data: { level: 'info', message, time: at } })

/**
 * Registers the RunStore contract under `name`. `makeStore` gives a fresh, empty store per test
 * (a Durable Object store holds one run, so every test uses one run per store).
 */
export function defineRunStoreContract(name: string, makeStore: () => RunStore | Promise<RunStore>, t: ContractRunner): void {
  const test = (title: string, fn: (store: RunStore, runId: string) => Promise<void>) =>
    t.test(`${name}: ${title}`, async () => fn(await makeStore(), crypto.randomUUID()))

  test('create stores the run and numbers its first events from 1', async (store, runId) => {
    const events = firstEvents(runId)
    const created = await store.create(waitingRecord(runId), events)
    equal(seqsOf(created), [1, 2, 3, 4, 5], 'create numbers events from 1')
    equal(created.map((entry) => entry.event), events, 'create returns the events it stored')
    equal(await store.get(runId), waitingRecord(runId), 'get returns the created record')
    equal(await store.events(runId, 0), created, 'events(0) returns the whole log')
  })

  test('every field of a record round-trips through storage', async (store, runId) => {
    await store.create(fullRecord(runId), [])
    const stored = await store.get(runId)
    equal(stored, fullRecord(runId), 'the stored record equals the one created')
    ok(stored && typeof stored.attempts === 'number' && stored.background === true && stored.principal === 'auth:8a3c', 'types survive storage')
    // Each status the run took, timed (the playground's timeline): a transition's patch carries the longer history.
    const history = [...fullRecord(runId).history!, { status: 'suspended' as const, at: '2026-01-02T03:04:09.250Z' }]
    const changed = await store.transition(runId, ['approval-required'], { status: 'suspended', attempts: 3, reason: 'again', error: undefined, history })
    ok(changed.ok, 'a transition from the stored status succeeds')
    const expected: Record<string, unknown> = { ...fullRecord(runId), status: 'suspended', attempts: 3, reason: 'again', history }
    delete expected.error
    equal(await store.get(runId), expected, 'the patched record round-trips too')
  })

  test("a running step's questions round-trip: asked, answered one at a time, removed", async (store, runId) => {
    const form = (field: string) => ({ message: `Which ${field}?`, requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] } })
    await store.create({ ...waitingRecord(runId), status: 'running', askable: true }, [])
    const asked = { colour: { request: form('colour') }, 'question-1': { request: form('size') } }
    ok((await store.transition(runId, ['running'], { questions: asked })).ok, 'asking is a transition of the running run')
    equal((await store.get(runId))?.questions, asked, 'both questions are stored, pending')
    const answered = { ...asked, colour: { ...asked.colour, answer: { action: 'accept' as const, content: { colour: 'teal' } } } }
    ok((await store.transition(runId, ['running'], { questions: answered })).ok, 'answering one is a transition too')
    equal((await store.get(runId))?.questions, answered, 'the answer is stored beside the question still pending')
    ok((await store.transition(runId, ['running'], { questions: undefined })).ok, 'the step removes its questions')
    const stored = await store.get(runId)
    ok(stored !== undefined && stored.questions === undefined && stored.askable === true, 'no question is left, and the run stays askable')
  })

  test('a run with principal null and no optional fields round-trips', async (store, runId) => {
    const minimal: RunRecord = { runId, toolId: 't', toolCallId: 'c', principal: null, status: 'running', createdAt: at, updatedAt: at, input: 0, requestContext: {} }
    await store.create(minimal, [])
    const stored = await store.get(runId)
    equal(stored, minimal, 'a minimal record round-trips')
    ok(stored?.principal === null, 'principal null stays null')
  })

  test('creating a run that exists fails and changes nothing', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    await rejects(() => store.create({ ...waitingRecord(runId), status: 'running' }, [logEvent('again')]), 'a second create of one run id must fail')
    equal((await store.get(runId))?.status, 'approval-required', 'the first record stays')
    equal(seqsOf(await store.events(runId, 0)), [1, 2, 3, 4, 5], 'no event was added')
  })

  test('unknown runs: get is undefined, events empty, transition not-found, append rejects, delete resolves', async (store, runId) => {
    const other = crypto.randomUUID()
    equal(await store.get(other), undefined, 'get of an unknown run')
    equal(await store.events(other, 0), [], 'events of an unknown run')
    const result = await store.transition(other, ['approval-required'], { status: 'running' })
    equal(result, { ok: false, reason: 'not-found' }, 'transition of an unknown run')
    await rejects(() => store.append(other, [logEvent('x')]), 'append to an unknown run must fail')
    await store.delete(other)
    // With a run stored, another id still reads as absent.
    await store.create(waitingRecord(runId), firstEvents(runId))
    equal(await store.get(other), undefined, 'get of another id beside a stored run')
    equal(await store.events(other, 0), [], 'events of another id beside a stored run')
    equal(await store.transition(other, ['approval-required'], { status: 'running' }), { ok: false, reason: 'not-found' }, 'transition of another id')
    await store.delete(other)
    equal((await store.get(runId))?.status, 'approval-required', 'deleting another id leaves the run')
  })

  test('transition with a condition (a lease) applies only when it holds of the stored run, in the same compare-and-set', async (store, runId) => {
    await store.create({ ...waitingRecord(runId), status: 'running', leaseUntil: 'lease-1' }, firstEvents(runId))
    // The lease rides on the condition too, so a store driven over RPC (a function cannot cross) rebuilds it.
    const holds = (lease: string) => Object.assign((run: RunRecord) => run.leaseUntil === lease, { leaseUntil: lease })
    const lost = await store.transition(runId, ['running'], { leaseUntil: 'lease-2' }, [logEvent('late renewal')], holds('lease-0'))
    ok(!lost.ok && lost.reason === 'conflict' && lost.run.leaseUntil === 'lease-1', 'a condition that fails is a conflict with the stored run')
    const taken = await store.transition(runId, ['running'], { leaseUntil: 'lease-2' }, [logEvent('taken over')], holds('lease-1'))
    ok(taken.ok && taken.run.leaseUntil === 'lease-2', 'a condition that holds applies the patch')
    ok(!(await store.transition(runId, ['running'], { status: 'failed' }, [], holds('lease-1'))).ok, 'the old holder now loses')
    equal((await store.events(runId, 0)).map((entry) => entry.event).slice(-1), [logEvent('taken over')], 'only the winner appended')
  })

  test('transition applies the patch and appends its events after the last', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    const events: ToolEvent[] = [
      { type: 'start', messageMetadata: { runId, toolCallId: 'call_aaaaaaaaaaaaaaaaaaaaaaaa' } },
      { type: 'tool-approval-response', approvalId: 'approval_bbbbbbbbbbbbbbbbbbbbbbbb', approved: true },
    ]
    const result = await store.transition(runId, ['approval-required'], { status: 'running', updatedAt: '2026-01-02T04:00:00.000Z', expiresAt: undefined }, events)
    ok(result.ok, 'the transition succeeds')
    equal(seqsOf(result.events), [6, 7], 'its events follow the log')
    equal(result.events.map((entry) => entry.event), events, 'its events are the ones given')
    ok(result.run.status === 'running' && result.run.updatedAt === '2026-01-02T04:00:00.000Z', 'the returned run carries the patch')
    ok(result.run.expiresAt === undefined, 'a patch field set to undefined is removed')
    const stored = await store.get(runId)
    equal(stored, result.run, 'get sees what the transition returned')
    ok(stored && !('expiresAt' in stored && stored.expiresAt !== undefined), 'the removed field stays removed')
    equal(seqsOf(await store.events(runId, 0)), [1, 2, 3, 4, 5, 6, 7], 'the log has both steps')
  })

  test('transition accepts any of several from-statuses', async (store, runId) => {
    await store.create({ ...waitingRecord(runId), status: 'suspended' }, [])
    const result = await store.transition(runId, ['running', 'approval-required', 'suspended'], { status: 'cancelled' }, [logEvent('cancel')])
    ok(result.ok && result.run.status === 'cancelled', 'a run in any listed status transitions')
    equal(seqsOf(result.events), [1], 'the first event of an empty log is 1')
  })

  test('a transition from another status is a conflict and changes nothing', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    const result = await store.transition(runId, ['suspended', 'running'], { status: 'completed', output: 1 }, [logEvent('never')])
    ok(!result.ok && result.reason === 'conflict', 'the transition is refused as a conflict')
    equal(!result.ok && result.reason === 'conflict' ? result.run : undefined, waitingRecord(runId), 'a conflict reports the run as it is')
    equal(await store.get(runId), waitingRecord(runId), 'the record is unchanged')
    equal(seqsOf(await store.events(runId, 0)), [1, 2, 3, 4, 5], 'no event was appended')
  })

  test('append numbers events after the last, in order, and events(after) reads any suffix', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    const appended = await store.append(runId, [logEvent('a'), logEvent('b')])
    equal(seqsOf(appended), [6, 7], 'append continues the numbering')
    equal(seqsOf(await store.append(runId, [logEvent('c')])), [8], 'a second append follows the first')
    equal(await store.append(runId, []), [], 'appending nothing appends nothing')
    const all = await store.events(runId, 0)
    equal(seqsOf(all), [1, 2, 3, 4, 5, 6, 7, 8], 'the log is contiguous')
    equal(all.slice(5).map((entry) => (entry.event.type === 'data-tool-log' ? entry.event.data.message : '')), ['a', 'b', 'c'], 'the log keeps append order')
    for (let after = 0; after <= 9; after++) {
      equal(await store.events(runId, after), all.filter((entry) => entry.seq > after), `events(${after}) is the suffix after ${after}`)
    }
  })

  test('concurrent appends get distinct, contiguous numbers', async (store, runId) => {
    await store.create(waitingRecord(runId), [])
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => store.append(runId, [logEvent(`m${index}`)])))
    const seqs = results.flat().map((entry) => entry.seq).sort((a, b) => a - b)
    equal(seqs, Array.from({ length: 20 }, (_, index) => index + 1), 'each append got its own number')
    const log = await store.events(runId, 0)
    equal(seqsOf(log), seqs, 'the log holds every appended event once')
    for (const entry of results.flat()) equal(log[entry.seq - 1], entry, `event ${entry.seq} is stored as returned`)
  })

  test('concurrent transitions from one status: exactly one wins (exactly-once stores)', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    const racers = 50
    const results = await Promise.all(
      Array.from({ length: racers }, (_, index) =>
        store.transition(runId, ['approval-required'], { status: 'running', reason: `winner ${index}` }, [logEvent(`approved by ${index}`)]),
      ),
    )
    const winners = results.filter((result) => result.ok)
    const log = await store.events(runId, 0)
    const approvals = log.filter((entry) => entry.event.type === 'data-tool-log')
    const stored = await store.get(runId)
    ok(stored?.status === 'running', 'the run left approval-required')
    if (store.exactlyOnce) {
      equal(winners.length, 1, 'exactly one transition wins')
      for (const result of results) if (!result.ok) ok(result.reason === 'conflict' && result.run.status === 'running', 'the losers see a conflict with the running run')
      equal(approvals.length, 1, 'only the winner appended its events')
      const winner = winners[0]!
      ok(winner.ok, 'winner')
      equal(stored, winner.run, 'the stored run is the winner’s')
      equal(winner.events, approvals, 'the winner’s events are in the log')
    } else {
      ok(winners.length >= 1, 'at least one transition wins')
      equal(approvals.length, winners.length, 'every winner appended its events, nobody else did')
    }
    equal(seqsOf(log), log.map((_, index) => index + 1), 'the log stays contiguous')
  })

  test('stored values are copies: changing what a call returned changes nothing stored', async (store, runId) => {
    const created = await store.create(waitingRecord(runId), firstEvents(runId))
    ;(created[0]!.event as { type: string }).type = 'mutated'
    const run = await store.get(runId)
    ;(run!.input as Record<string, unknown>).path = 'mutated'
    const events = await store.events(runId, 0)
    equal(events[0]!.event, firstEvents(runId)[0], 'a returned event is a copy')
    equal(await store.get(runId), waitingRecord(runId), 'a returned record is a copy')
  })

  test('delete removes the record and its events; the id can then be created again', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    await store.append(runId, [logEvent('x')])
    await store.delete(runId)
    equal(await store.get(runId), undefined, 'the record is gone')
    equal(await store.events(runId, 0), [], 'the events are gone')
    equal(await store.transition(runId, ['approval-required'], { status: 'running' }), { ok: false, reason: 'not-found' }, 'a deleted run is not found')
    await store.delete(runId)
    const again = await store.create({ ...waitingRecord(runId), status: 'running' }, [logEvent('new')])
    equal(seqsOf(again), [1], 'a run created again starts its log at 1')
    equal(seqsOf(await store.events(runId, 0)), [1], 'no old event comes back')
  })

  test('every event shape round-trips', async (store, runId) => {
    const events: ToolEvent[] = [
      ...firstEvents(runId),
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{"pa' },
      { type: 'tool-input-error', toolCallId: 'c', toolName: 't', input: { bad: true }, errorText: 'nope' },
      { type: 'tool-approval-response', approvalId: 'a', approved: false, reason: 'no' },
      { type: 'data-tool-suspended', data: { runId, toolCallId: 'c', suspendPayload: { q: 'x' }, resumeSchema: { type: 'object' } } },
      { type: 'data-tool-resumed', data: { runId, toolCallId: 'c', resumeData: { seat: '12A' } } },
      { type: 'data-tool-log', data: { level: 'warn', message: 'm', data: { k: 1 }, time: at } },
      { type: 'data-tool-span', data: { spanId: 's', parentSpanId: 'p', name: 'n', phase: 'end', durationMs: 3, status: 'ok', attributes: { a: 'b' } } },
      { type: 'tool-output-available', toolCallId: 'c', output: { big: 'x'.repeat(5000) }, preliminary: true },
      { type: 'data-tool-model-output', data: { toolCallId: 'c', modelOutput: { type: 'text', value: 'hi' } } },
      { type: 'tool-output-error', toolCallId: 'c', errorText: 'boom' },
      { type: 'tool-output-denied', toolCallId: 'c' },
      { type: 'finish', finishReason: 'stop' },
    ]
    await store.create(waitingRecord(runId), events)
    equal((await store.events(runId, 0)).map((entry) => entry.event), events, 'events come back as stored, large ones included')
  })
  test('events(after, limit) reads the log a page at a time', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    await store.append(runId, Array.from({ length: 7 }, (_, index) => logEvent(`p${index}`)))
    const all = await store.events(runId, 0)
    equal(seqsOf(all), Array.from({ length: 12 }, (_, index) => index + 1), 'twelve events')
    for (const limit of [1, 3, 5, 12, 50]) {
      const read: SequencedEvent[] = []
      for (let after = 0, page = await store.events(runId, 0, limit); page.length > 0; page = await store.events(runId, after, limit)) {
        ok(page.length <= limit, `a page of limit ${limit} holds at most ${limit} events`)
        read.push(...page)
        after = page.at(-1)!.seq
      }
      equal(read, all, `pages of ${limit} read the whole log once, in order`)
    }
    equal(await store.events(runId, 4, 2), all.slice(4, 6), 'a page starts just after its cursor')
    equal(await store.events(runId, 11, 5), all.slice(11), 'the last page is short')
    equal(await store.events(runId, 12, 5), [], 'nothing after the last event')
  })

  test('size counts the events and the bytes of their JSON', async (store, runId) => {
    equal(await store.size(runId), { events: 0, bytes: 0 }, 'an unknown run has an empty log')
    const first = firstEvents(runId)
    await store.create(waitingRecord(runId), first)
    equal(await store.size(runId), { events: 5, bytes: bytesOf(first) }, 'the first events are counted')
    const more = [logEvent('Zoë ✈ 𝄞'), logEvent('x'.repeat(2000))]
    await store.append(runId, more)
    const ended: ToolEvent[] = [{ type: 'finish', finishReason: 'stop' }]
    await store.transition(runId, ['approval-required'], { status: 'completed' }, ended)
    equal(await store.size(runId), { events: 8, bytes: bytesOf([...first, ...more, ...ended]) }, 'appends and transitions are counted, in UTF-8 bytes')
    equal(await store.size(crypto.randomUUID()), { events: 0, bytes: 0 }, 'another id beside it has none')
    await store.delete(runId)
    equal(await store.size(runId), { events: 0, bytes: 0 }, 'a deleted run has none')
  })

  test('append refuses a batch past maxEvents whole, and keeps what was stored', async (store, runId) => {
    await store.create(waitingRecord(runId), firstEvents(runId))
    const limits = { maxEvents: 8, maxEventBytes: 1_000_000 }
    equal(seqsOf(await store.append(runId, [logEvent('a'), logEvent('b')], limits)), [6, 7], 'below the limit, appends')
    const before = await store.events(runId, 0)
    const size = await store.size(runId)
    await rejectsNaming(() => store.append(runId, [logEvent('c'), logEvent('d')], limits), 'maxEvents', 'a batch past the limit is refused')
    equal(await store.events(runId, 0), before, 'nothing of the refused batch is stored, nothing before is lost')
    equal(await store.size(runId), size, 'the size is unchanged')
    equal(seqsOf(await store.append(runId, [logEvent('c')], limits)), [8], 'a batch that reaches the limit exactly is stored')
    await rejectsNaming(() => store.append(runId, [logEvent('e')], limits), 'maxEvents', 'a full log takes no more')
    equal(await store.append(runId, [], limits), [], 'appending nothing to a full log is no error')
    const ended = await store.transition(runId, ['approval-required'], { status: 'failed' }, [{ type: 'finish', finishReason: 'error' }])
    ok(ended.ok && seqsOf(ended.events)[0] === 9, 'a transition still ends the run past the limit')
    equal(seqsOf(await store.events(runId, 0)), [1, 2, 3, 4, 5, 6, 7, 8, 9], 'the log is whole and contiguous')
  })

  test('append refuses a batch past maxEventBytes whole, and keeps what was stored', async (store, runId) => {
    await store.create(waitingRecord(runId), [])
    const small = logEvent('ok')
    const limits = { maxEvents: 1_000, maxEventBytes: bytesOf([small]) * 3 }
    await store.append(runId, [small, small], limits)
    await rejectsNaming(() => store.append(runId, [logEvent('é'.repeat(10))], limits), 'maxEventBytes', 'a batch past the bytes is refused')
    equal(seqsOf(await store.events(runId, 0)), [1, 2], 'nothing of it is stored')
    equal(seqsOf(await store.append(runId, [small], limits)), [3], 'a batch that reaches the bytes exactly is stored')
    await rejectsNaming(() => store.append(runId, [logEvent('')], limits), 'maxEventBytes', 'a full log takes no more')
    equal(await store.size(runId), { events: 3, bytes: bytesOf([small, small, small]) }, 'the size is the stored events’')
  })
}
