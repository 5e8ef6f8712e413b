import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { createToolClient } from './create-tool-client.ts'
import type { CallResult } from '../protocol/call-result.ts'
import type { SequencedEvent } from '../protocol/tool-event.ts'
import type { RunView } from '../protocol/call-result.ts'

const weatherTool = createTool({
  id: 'weather-tool',
  description: 'Weather',
  inputSchema: z.object({ location: z.string(), units: z.enum(['c', 'f']).default('c') }),
  outputSchema: z.object({ location: z.string(), temperature: z.number() }),
  execute: async ({ location }) => ({ location, temperature: 21 }),
})
const bookFlight = createTool({
  id: 'book-flight',
  description: 'Book',
  inputSchema: z.object({ from: z.string(), to: z.string() }),
  suspendSchema: z.object({ seats: z.array(z.string()) }),
  resumeSchema: z.object({ seat: z.string() }),
  requestContextSchema: z.object({ tenantId: z.string() }),
  execute: async ({ from }, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ seats: ['1A'] })
    return { confirmation: `${from}-${resumeData.seat}` }
  },
})
const tools = [weatherTool, bookFlight]
const toolModule = { weatherTool, bookFlight, notATool: 42 }

describe('createToolClient<typeof tools>', () => {
  const client = createToolClient<typeof tools>({ baseUrl: 'https://tools.example.com' })

  it('accepts only the server’s tool ids', () => {
    expectTypeOf(client.call).parameter(0).toEqualTypeOf<'weather-tool' | 'book-flight'>()
    // @ts-expect-error an id the server does not serve
    void client.call('no-such-tool', {})
  })

  it('infers each tool’s input (the schema’s input: defaults optional)', () => {
    void client.call('weather-tool', { location: 'Lisbon' })
    void client.call('weather-tool', { location: 'Lisbon', units: 'f' })
    // @ts-expect-error location is required
    void client.call('weather-tool', {})
    // @ts-expect-error units is an enum
    void client.call('weather-tool', { location: 'Lisbon', units: 'kelvin' })
    // A model's argument deltas stand in for any input.
    void client.call('weather-tool', (async function* () {
      yield '{}'
    })())
  })

  it('infers each tool’s output, suspend payload and resume data', async () => {
    const result = await client.call('weather-tool', { location: 'Lisbon' })
    expectTypeOf(result).toEqualTypeOf<CallResult<{ location: string; temperature: number }, unknown>>()
    if (result.status === 'completed') expectTypeOf(result.output.temperature).toBeNumber()

    const flight = await client.call('book-flight', { from: 'LIS', to: 'OPO' }, { requestContext: { tenantId: 't1' } })
    if (flight.status === 'suspended') expectTypeOf(flight.suspendPayload).toEqualTypeOf<{ seats: string[] }>()
    if (flight.status === 'completed') expectTypeOf(flight.output).toEqualTypeOf<{ confirmation: string }>()

    const resumed = await client.resume<'book-flight'>('run', { seat: '12A' })
    if (resumed.status === 'completed') expectTypeOf(resumed.output).toEqualTypeOf<{ confirmation: string }>()
    // @ts-expect-error resume data against resumeSchema
    void client.resume<'book-flight'>('run', { row: 12 })
  })

  it('types the request context from requestContextSchema', () => {
    // @ts-expect-error tenantId is a string
    void client.call('book-flight', { from: 'LIS', to: 'OPO' }, { requestContext: { tenantId: 1 } })
  })

  it('streams the server’s own event type', () => {
    expectTypeOf(client.stream('weather-tool', { location: 'Lisbon' })).toEqualTypeOf<AsyncIterable<SequencedEvent>>()
    expectTypeOf(client.follow('run')).toEqualTypeOf<AsyncIterable<SequencedEvent>>()
    expectTypeOf(client.getRun('run')).resolves.toEqualTypeOf<RunView>()
  })
})

describe('createToolClient<typeof module>', () => {
  it('reads tools from a module’s exports, ignoring what is not a tool', async () => {
    const client = createToolClient<typeof toolModule>({ baseUrl: 'https://tools.example.com' })
    expectTypeOf(client.call).parameter(0).toEqualTypeOf<'weather-tool' | 'book-flight'>()
    const result = await client.call('weather-tool', { location: 'Lisbon' })
    if (result.status === 'completed') expectTypeOf(result.output).toEqualTypeOf<{ location: string; temperature: number }>()
  })
})

describe('createToolClient() without types', () => {
  it('takes any id and input', async () => {
    const client = createToolClient({ fetcher: { fetch: async () => new Response() } })
    expectTypeOf(client.call).parameter(0).toEqualTypeOf<string>()
    const result = await client.call('anything', { any: 'input' })
    if (result.status === 'completed') expectTypeOf(result.output).toBeAny()
  })
})

describe('idempotency options', () => {
  it('a call takes an idempotencyKey; the client an idempotency switch', () => {
    const client = createToolClient<[typeof weatherTool]>({ baseUrl: 'http://x', idempotency: false })
    expectTypeOf(client.call).parameter(2).exclude<undefined>().toHaveProperty('idempotencyKey').toEqualTypeOf<string | undefined>()
    expectTypeOf(client.stream).parameter(2).exclude<undefined>().toHaveProperty('idempotencyKey').toEqualTypeOf<string | undefined>()
    // @ts-expect-error the key is text
    void client.call('weather-tool', { location: 'x' }, { idempotencyKey: 42 })
  })
})
