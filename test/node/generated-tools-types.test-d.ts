// The build's `Tools` type carries each served tool's own types, so a client typed with it
// infers every call's input and output by tool id (what the README's client example relies on).
import { expectTypeOf, test } from 'vitest'
import { createToolClient } from 'toolroute/client'
import type { Tools } from '../../.toolroute/tools.ts'

test('createToolClient<Tools>() types calls by tool id', () => {
  const client = createToolClient<Tools>({ baseUrl: 'http://tools.test' })
  type Call = Awaited<ReturnType<typeof client.call<'weather-tool'>>>
  expectTypeOf<Extract<Call, { status: 'completed' }>['output']>().toEqualTypeOf<{ location: string; temperatureCelsius: number; conditions: string }>()
  void client.call('book-flight', { from: 'LIS', to: 'JFK' })
  // @ts-expect-error: weather-tool takes a location, not a city
  void client.call('weather-tool', { city: 'Lisbon' })
})
