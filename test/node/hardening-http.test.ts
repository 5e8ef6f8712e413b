// Hardening: property-based tests over the HTTP layer (fast-check), in Node on the memory
// stores. Random JSON-Schema tools plus the framework's kinds of tool (approval, suspend, request
// context, failing), random and hostile requests; every answer must hold:
// - no 5xx outside the spec's execution codes; every error in the spec's shape and status;
// - no stack trace in any body; every stream ends with `finish` then `[DONE]`;
// - a rejected request (4xx, or a stream ending in tool-input-error) changes no state: no
//   execution, no run stored or changed, no idempotency key held;
// - nothing lands on Object.prototype;
// - the secret canary's tools get the secret in their input and request context, and no answer
//   carries it outside what the spec gives the caller raw (test/shared/secret-scan.ts).
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool, errorStatus, type JSONSchema } from 'toolroute'
import { createMemoryIdempotencyStore, createMemoryRunStore, createRunEngine, createToolApp, driveRuns, type IdempotencyStore, type RunStore } from 'toolroute/server'
import { bodyFor, headersArbitrary, jsonSchemaArbitrary, problemOf, readAnswer, type Body, type JsonSchema } from '../fixtures/hostile-requests.ts'
import { canaryFailing, canaryKindTools, canarySecret, canaryTools } from '../fixtures/canary-tools.ts'
import { assertProperty, describeRuns, propertyTimeout } from '../fixtures/property-seeds.ts'
import { emptyTally, scanExchange } from '../shared/secret-scan.ts'

const runs = { numRuns: Number(process.env.TOOLROUTE_PROPERTY_RUNS ?? 6000) }
let executions = 0
const statuses = new Map<number, number>()
let streams = 0
let rejected = 0

// A fixed pool of random schemas (fixed seed: the same pool every run), one tool each.
const schemas = fc.sample(jsonSchemaArbitrary, { numRuns: 40, seed: 17 })
const schemaTools = schemas.map((schema, index) =>
  createTool({ id: `random-${index}`, description: `random schema ${index}`, inputSchema: schema as JSONSchema, execute: async (input) => ((executions += 1), { input }) }),
)
const kindTools = [
  createTool({
    id: 'needs-approval',
    description: 'approval',
    inputSchema: z.object({ name: z.string().max(100) }),
    requireApproval: true,
    execute: async ({ name }) => ((executions += 1), { name }),
  }),
  createTool({
    id: 'suspends',
    description: 'suspend',
    inputSchema: z.object({ name: z.string().optional() }),
    suspendSchema: z.object({ question: z.string() }),
    resumeSchema: z.object({ answer: z.string() }),
    execute: async (_input, { suspend, resumeData }) => ((executions += 1), resumeData ? { done: true } : suspend({ question: 'go?' })),
  }),
  createTool({
    id: 'with-context',
    description: 'request context',
    inputSchema: z.object({ name: z.string().optional(), count: z.number().int().optional() }),
    requestContextSchema: z.object({ tenantId: z.string().min(3), apiKey: z.string().startsWith('sk_') }),
    execute: async (input) => ((executions += 1), input),
  }),
  createTool({
    id: 'fails',
    description: 'throws',
    inputSchema: z.object({ name: z.string().optional() }),
    execute: async () => {
      executions += 1
      throw new Error('it broke')
    },
  }),
  createTool({
    id: 'bad-output',
    description: 'output against its schema',
    inputSchema: z.object({}).loose(),
    outputSchema: z.object({ count: z.number() }),
    execute: async () => ((executions += 1), { count: 'many' }) as never,
  }),
]
const tools = [...schemaTools, ...kindTools, ...canaryTools, ...canaryKindTools]
const canaryFrom = schemaTools.length + kindTools.length
const inputSchemaOf = (index: number): JsonSchema => (index < schemas.length ? schemas[index]! : { type: 'object', properties: { name: { type: 'string' }, count: { type: 'integer' } } })

// The secret canary's tools (test/fixtures/canary-tools.ts, in every schema kind) take their share
// of the requests, with the secret in their input and request context, valid or not: every answer
// is scanned for it.
// (`label` is what the canary's views show, so it never carries the secret.)
const canaryInput = { type: 'object', properties: { label: { type: 'string', maxLength: 25 }, secret: { type: 'string', enum: [canarySecret] } }, required: ['label', 'secret'] }
const canaryBody = fc.oneof(
  { weight: 3, arbitrary: fc.record({ label: fc.string({ maxLength: 30 }), secret: fc.oneof({ weight: 4, arbitrary: fc.constant(canarySecret) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }) }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: bodyFor(canaryInput) },
  { weight: 1, arbitrary: fc.constantFrom(`{"label":"x","secret": ${canarySecret}}`, `{"label":"x","secret":"${canarySecret}`, `{"label":"x","${canarySecret}":1}`, JSON.stringify(canaryFailing.input)) },
  { weight: 1, arbitrary: fc.constantFrom('bad-output', 'bad-suspend', 'suspend', 'ok').map((mode) => JSON.stringify({ label: 'x', secret: canarySecret, mode })) },
)
const canaryContext = fc.constantFrom(
  JSON.stringify({ apiKey: `sk_${canarySecret}`, token: canarySecret }),
  JSON.stringify({ apiKey: canarySecret }),
  JSON.stringify({ apiKey: `sk_${canarySecret}`, token: 7, [canarySecret]: canarySecret }),
  JSON.stringify(canaryFailing.requestContext),
)
const scanned = emptyTally()

/** Every write to the run store, counted: a rejected request must make none. */
function countingRunStore(store: RunStore) {
  const counted = { writes: 0 }
  const wrapped: RunStore = {
    exactlyOnce: store.exactlyOnce,
    create: (...args) => ((counted.writes += 1), store.create(...args)),
    get: (...args) => store.get(...args),
    transition: (...args) => ((counted.writes += 1), store.transition(...args)),
    append: (...args) => ((counted.writes += 1), store.append(...args)),
    events: (...args) => store.events(...args),
    size: (...args) => store.size(...args),
    delete: (...args) => ((counted.writes += 1), store.delete(...args)),
  }
  return { store: wrapped, counted }
}

/** The keys held (claimed or answered): a rejected request must leave the set as it found it. */
function trackingKeyStore(store: IdempotencyStore) {
  const held = new Map<string, string>()
  const name = (scope: { principal: string | null; key: string }) => JSON.stringify([scope.principal, scope.key])
  const wrapped: IdempotencyStore = {
    async begin(scope, fingerprint) {
      const result = await store.begin(scope, fingerprint)
      if (result.state === 'new') held.set(name(scope), 'pending')
      return result
    },
    async complete(scope, fingerprint, answer) {
      await store.complete(scope, fingerprint, answer)
      held.set(name(scope), 'done')
    },
    async release(scope, fingerprint) {
      await store.release(scope, fingerprint)
      held.delete(name(scope))
    },
  }
  return { store: wrapped, snapshot: () => JSON.stringify([...held].sort()) }
}

const runStore = countingRunStore(createMemoryRunStore())
const keyStore = trackingKeyStore(createMemoryIdempotencyStore())
const app = createToolApp({
  tools,
  runs: createRunEngine({ drive: driveRuns(new Map(tools.map((tool) => [tool.id, tool]))), store: runStore.store }),
  idempotency: keyStore.store,
  mcp: false,
})

const requestArbitrary = fc
  .integer({ min: 0, max: tools.length - 1 + 1 })
  .chain((index) =>
    fc.record({
      toolId: fc.constant(index < tools.length ? tools[index]!.id : 'no-such-tool'),
      body: index >= canaryFrom && index < tools.length ? canaryBody : bodyFor(inputSchemaOf(index)),
      headers: index >= canaryFrom && index < tools.length ? headersArbitrary.chain((headers) => canaryContext.map((context) => ({ ...headers, 'x-request-context': context }))) : headersArbitrary,
      view: fc.constantFrom('', '?view=raw', '?view=transcript', '?view=display', '?view=%00'),
      declareLength: fc.boolean(),
    }),
  )

const byteLength = (body: Body) => (typeof body === 'string' ? new TextEncoder().encode(body).byteLength : body.byteLength)

describe('hardening: property-based HTTP', () => {
  afterAll(() => {
    const figures = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ')
    console.log(`hardening/http (node, memory stores): ${describeRuns('http', runs)} of random requests over ${tools.length} tools; statuses ${figures}; ${streams} event streams; ${rejected} rejected with no state change; ${executions} executions; 0 properties failed`)
    console.log(`hardening/http secret canary: ${scanned.withSecret} requests carried the secret; ${scanned.bodies} answers and ${scanned.events} events scanned (${scanned.raw} raw views: their errorText only); ${scanned.leaks.length} occurrences`)
  })

  it(`random and hostile requests (${describeRuns('http', runs)}): spec-shaped errors, no 5xx outside execution, no stack trace, rejections change nothing`, async () => {
    await assertProperty(
      'http',
      fc.asyncProperty(requestArbitrary, async ({ toolId, body, headers, view, declareLength }) => {
        const before = { executions, writes: runStore.counted.writes, keys: keyStore.snapshot() }
        const sent = new Headers(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
        if (declareLength) sent.set('content-length', String(byteLength(body)))
        const response = await app.request(`/tools/${encodeURIComponent(toolId)}${view}`, { method: 'POST', headers: sent, body })
        const answer = await readAnswer(response)
        const carriedSecret = typeof body === 'string' ? body.includes(canarySecret) || Object.values(headers).some((value) => value?.includes(canarySecret)) : false
        const leaks = scanned.leaks.length
        scanExchange(scanned, { method: 'POST', url: `http://tools.test/tools/${encodeURIComponent(toolId)}${view}`, carriedSecret, status: answer.status, contentType: response.headers.get('content-type') ?? '', text: answer.text })
        if (scanned.leaks.length > leaks) throw new Error(`the canary's secret in an answer: ${scanned.leaks.at(-1)}`)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        if (answer.events.length > 0) streams += 1
        const problem = problemOf(answer, errorStatus)
        if (problem) throw new Error(problem)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        const refused = (answer.status >= 400 && answer.status < 500) || answer.events.some((event) => event.type === 'tool-input-error')
        if (refused) {
          rejected += 1
          expect({ executions, writes: runStore.counted.writes, keys: keyStore.snapshot() }).toEqual(before)
        }
      }),
      runs,
    )
  }, propertyTimeout)
})
