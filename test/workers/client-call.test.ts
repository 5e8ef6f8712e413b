import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToolClient, ToolClientError } from 'toolroute/client'
import type { weatherTool } from '../../tools/weather-tool.ts'
import type { deleteFile } from '../../tools/delete-file.ts'
import type { bookFlight } from '../../tools/book-flight.ts'
import type { generateReport } from '../../tools/generate-report.ts'
import type { lookupCustomer } from '../../tools/lookup-customer.ts'
import type { failingTool, badOutputTool, conditionalApproval } from '../fixtures/test-tools.ts'

type Tools = [
  typeof weatherTool,
  typeof deleteFile,
  typeof bookFlight,
  typeof generateReport,
  typeof lookupCustomer,
  typeof failingTool,
  typeof badOutputTool,
  typeof conditionalApproval,
]

// SELF is a Fetcher: the same path a Worker takes through a service binding (env.TOOLS).
const client = createToolClient<Tools>({ fetcher: SELF })

describe('client over a service binding: list and call', () => {
  it('lists the descriptors', async () => {
    const tools = await client.list()
    const weather = tools.find((tool) => tool.id === 'weather-tool')
    expect(weather).toMatchObject({ id: 'weather-tool', requireApproval: false, inputSchema: { type: 'object' } })
    expect(tools.find((tool) => tool.id === 'delete-file')?.requireApproval).toBe(true)
    expect(await client.describe('book-flight')).toMatchObject({ id: 'book-flight', resumeSchema: { type: 'object' } })
  })

  it('calls a tool and gets its typed output', async () => {
    const result = await client.call('weather-tool', { location: 'Lisbon' }, { toolCallId: 'call_weather_1' })
    expect(result.status).toBe('completed')
    if (result.status !== 'completed') return
    expect(result.output).toEqual({ location: 'Lisbon', temperatureCelsius: 21, conditions: 'sunny' })
    expect(result.modelOutput).toEqual({ type: 'json', value: result.output })
    expect(result.toolCallId).toBe('call_weather_1')
    expect(result.runId).toMatch(/\S{20,}/)
  })

  it('answers approval-required, suspended and running as the spec says', async () => {
    const approval = await client.call('delete-file', { path: '/tmp/a' })
    expect(approval).toMatchObject({ status: 'approval-required', approvalId: expect.any(String) })

    const suspended = await client.call('book-flight', { from: 'LIS', to: 'OPO' })
    expect(suspended).toMatchObject({ status: 'suspended', suspendPayload: { seats: ['12A', '12B', '14C'] }, resumeSchema: { type: 'object' } })

    const running = await client.call('generate-report', { month: '2026-01', delayMs: 0 })
    expect(running).toMatchObject({ status: 'running', runId: expect.any(String) })
  })

  it('sends the request context, also from the client defaults', async () => {
    const withDefault = createToolClient<Tools>({ fetcher: SELF, requestContext: { userId: 'admin' } })
    const result = await withDefault.call('transfer-money', { amount: 500 })
    expect(result).toMatchObject({ status: 'completed', output: { transferred: 500, by: 'admin' } })
    // The call's own context wins over the client's.
    const needsApproval = await withDefault.call('transfer-money', { amount: 500 }, { requestContext: { userId: 'Zoë' } })
    expect(needsApproval.status).toBe('approval-required')
  })

  it('rejects with one error class carrying the spec code, status and issues', async () => {
    const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('resolved'), (error: unknown) => error as ToolClientError)

    const invalid = await failure(client.call('weather-tool', { location: '' }))
    expect(ToolClientError.isInstance(invalid)).toBe(true)
    expect(invalid).toBeInstanceOf(ToolClientError)
    expect(invalid).toMatchObject({ code: 'INPUT_VALIDATION_FAILED', status: 400 })
    expect(invalid.issues?.[0]?.path).toEqual(['location'])

    expect(await failure(client.call('no-such-tool' as 'weather-tool', { location: 'x' }))).toMatchObject({ code: 'TOOL_NOT_FOUND', status: 404 })
    expect(await failure(client.call('transfer-money', { amount: 5 }))).toMatchObject({ code: 'REQUEST_CONTEXT_VALIDATION_FAILED', status: 400 })
    const thrown = await failure(client.call('failing-tool', { message: 'boom' }))
    expect(thrown).toMatchObject({ code: 'EXECUTION_FAILED', status: 500, message: 'boom' })
    expect(thrown.runId).toEqual(expect.any(String))
    expect(await failure(client.call('bad-output-tool', {}))).toMatchObject({ code: 'OUTPUT_VALIDATION_FAILED', status: 500 })
    expect(await failure(client.getRun('run_does_not_exist'))).toMatchObject({ code: 'RUN_NOT_FOUND', status: 404 })
  })

  it('names an answer that is not toolroute’s UNEXPECTED_RESPONSE, a network failure CONNECTION_LOST, an unknown route TOOL_NOT_FOUND', async () => {
    const proxy = createToolClient({ fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }) , baseUrl: 'http://proxy' })
    await expect(proxy.list()).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 502 })
    const down = createToolClient({ fetch: async () => { throw new TypeError('fetch failed') }, baseUrl: 'http://down' })
    await expect(down.call('x', {})).rejects.toMatchObject({ code: 'CONNECTION_LOST', status: 0 })
    // A base path toolroute does not serve is still toolroute's answer: an unknown route answers
    // with a code of the spec's table (TOOL_NOT_FOUND, 404), not the unlisted NOT_FOUND.
    const wrongBase = createToolClient({ fetcher: SELF, baseUrl: 'http://toolroute/not-here' })
    await expect(wrongBase.list()).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', status: 404, message: 'No route for GET /not-here/tools' })
  })

  it('calls a `fetch` option bare, as a browser\'s `window.fetch` requires (it throws on any other `this`)', async () => {
    // What a browser's fetch does when called as a method of another object: "Illegal invocation".
    function pageFetch(this: unknown, request: Request): Promise<Response> {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation')
      return SELF.fetch(request)
    }
    const tools = await createToolClient({ fetch: pageFetch, baseUrl: 'http://toolroute' }).list()
    expect(tools.some((tool) => tool.id === 'weather-tool')).toBe(true)
  })

  it('sends its headers, static or made per request', async () => {
    const seen: string[] = []
    const recording = createToolClient({
      fetcher: {
        fetch: (input, init) => {
          const request = new Request(input, init)
          seen.push(request.headers.get('authorization') ?? '')
          return SELF.fetch(request)
        },
      },
      headers: async () => ({ authorization: `Bearer ${seen.length}` }),
    })
    await recording.list()
    await recording.list({ headers: { authorization: 'Bearer override' } })
    expect(seen).toEqual(['Bearer 0', 'Bearer override'])
  })

  it('refuses to start without a place to send requests', () => {
    expect(() => createToolClient()).toThrow(/baseUrl or a fetcher/)
  })
})
