import { describe, expectTypeOf, it } from 'vitest'
import { bookFlight } from '../../tools/book-flight.ts'
import { lookupCustomer } from '../../tools/lookup-customer.ts'
import { createTestClient } from './create-test-client.ts'
import { runTool } from './run-tool.ts'

describe('toolroute/testing types', () => {
  it('runTool infers input, output, resume data and request context from the tool', async () => {
    const result = await runTool(bookFlight, { from: 'LIS', to: 'SFO' }, { resumeData: { seat: '12A' } })
    expectTypeOf(result.output).toEqualTypeOf<{ confirmation: string; seat: string } | undefined>()
    expectTypeOf(result.suspendPayload).toEqualTypeOf<{ question: string; seats: string[] } | undefined>()
    // @ts-expect-error: from is a string
    await runTool(bookFlight, { from: 1, to: 'SFO' })
    // @ts-expect-error: resumeData is { seat: string }
    await runTool(bookFlight, { from: 'LIS', to: 'SFO' }, { resumeData: { row: 12 } })
    await runTool(lookupCustomer, { email: 'a@b.c' }, { requestContext: { tenantId: 't1' } })
    // @ts-expect-error: tenantId is a string
    await runTool(lookupCustomer, { email: 'a@b.c' }, { requestContext: { tenantId: 1 } })
  })

  it('createTestClient is the typed client, plus settle', async () => {
    const client = createTestClient<[typeof bookFlight]>()
    const result = await client.call('book-flight', { from: 'LIS', to: 'SFO' })
    if (result.status === 'suspended') expectTypeOf(result.suspendPayload).toEqualTypeOf<{ question: string; seats: string[] }>()
    // @ts-expect-error: no such tool
    await client.call('nope', {})
    expectTypeOf(client.settle).returns.resolves.toHaveProperty('status')
  })
})
