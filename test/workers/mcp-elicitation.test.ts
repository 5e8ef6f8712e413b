import { SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAll, connectMcp, textOf } from './mcp-client.ts'

afterEach(closeAll)

interface RunMeta {
  runId: string
  toolCallId: string
  status: string
  approvalId?: string
  routes?: Record<string, string>
}
const runOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.['toolroute/run'] as RunMeta

/** A run over HTTP; one a session opened belongs to it (SPEC §12), so the request names the session. */
async function getRun(runId: string, sessionId?: string) {
  const response = await SELF.fetch(`http://tools.test/runs/${runId}`, { headers: sessionId ? { 'mcp-session-id': sessionId } : {} })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe('elicitation from execute', () => {
  it('asks the user mid-call and continues with the answer', async () => {
    const { client, questions } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) })
    const result = await client.callTool({ name: 'ask-name', arguments: { greeting: 'Hi' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ text: 'Hi, Ada', action: 'accept' })
    expect(questions).toEqual([expect.objectContaining({ message: 'What is your name?', requestedSchema: expect.objectContaining({ required: ['name'] }) })])
  })

  it('hands a declined question back to the tool', async () => {
    const { client } = await connectMcp({ elicitation: () => ({ action: 'decline' }) })
    const result = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(result.structuredContent).toEqual({ text: 'Hello, stranger', action: 'decline' })
  })

  it('serves the confirm-order example: the answer changes what the tool does', async () => {
    const { client } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { confirm: true, quantity: 3 } }) })
    const placed = await client.callTool({ name: 'confirm-order', arguments: { item: 'Blue Mug', quantity: 1 } })
    expect(placed.structuredContent).toEqual({ status: 'placed', item: 'Blue Mug', quantity: 3, orderId: 'ord_blue-mug_3' })
  })

  it('gives the tool an error when the client cannot answer questions', async () => {
    const { client } = await connectMcp()
    const result = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/^EXECUTION_FAILED: .*elicitation/i)
  })
})

describe('approval over MCP', () => {
  it('asks an approve/decline form; approval runs the tool once, through the run host', async () => {
    const { client, questions, transport } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { approved: true } }) })
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/tmp/report.txt' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ deleted: '/tmp/report.txt' })
    expect(questions).toHaveLength(1)
    expect(questions[0]!.message).toContain('Delete file')
    expect(questions[0]!.message).toContain('/tmp/report.txt')
    expect(questions[0]!.requestedSchema).toMatchObject({ properties: { approved: { type: 'boolean' } }, required: ['approved'] })

    // The run is the same durable run HTTP sees: approved once, now completed.
    const { runId } = runOf(result)
    const run = await getRun(runId, transport.sessionId)
    expect(run.body).toMatchObject({ status: 'completed', toolId: 'delete-file', output: { deleted: '/tmp/report.txt' } })
    const again = await SELF.fetch(`http://tools.test/runs/${runId}/approve`, { method: 'POST', headers: { 'mcp-session-id': transport.sessionId! } })
    expect(again.status).toBe(409)
  })

  it('declines through the form: the tool never runs, the reason is kept', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { approved: false, reason: 'wrong file' } }) })
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/etc/hosts' } })
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('declined')
    expect(textOf(result)).toContain('wrong file')
    const run = await getRun(runOf(result).runId, transport.sessionId)
    expect(run.body).toMatchObject({ status: 'declined', reason: 'wrong file' })
    expect(run.body.output).toBeUndefined()
  })

  it('treats a declined form as a decline', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'decline' }) })
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/a' } })
    expect(result.isError).toBe(true)
    expect((await getRun(runOf(result).runId, transport.sessionId)).body.status).toBe('declined')
  })

  it('leaves the run waiting when the user dismisses the form, naming the routes that finish it', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'cancel' }) })
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/b' } })
    expect(result.isError).toBe(true)
    const { runId } = runOf(result)
    expect(textOf(result)).toContain(`POST /runs/${runId}/approve`)
    // The run is the session's (its client sent no credential): the text names the header that reaches it.
    expect(textOf(result)).toContain(`Mcp-Session-Id: ${transport.sessionId}`)
    expect((await getRun(runId, transport.sessionId)).body.status).toBe('approval-required')
    expect((await getRun(runId)).status).toBe(404)
    expect((await getRun(runId, crypto.randomUUID())).status).toBe(404)
  })

  it('applies conditional approval with the validated request context', async () => {
    const asked: unknown[] = []
    const { client } = await connectMcp({
      headers: { 'x-request-context': JSON.stringify({ userId: 'admin' }) },
      elicitation: (params) => (asked.push(params), { action: 'accept', content: { approved: true } }),
    })
    const result = await client.callTool({ name: 'transfer-money', arguments: { amount: 500 } })
    expect(result.structuredContent).toEqual({ transferred: 500, by: 'admin' })
    expect(asked).toHaveLength(0)
  })
})

describe('suspend and resume over MCP', () => {
  it('asks with the resumeSchema as the form, and resumes the run with the answer', async () => {
    const { client, questions, transport } = await connectMcp({ elicitation: () => ({ action: 'accept', content: { seat: '12A' } }) })
    const result = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'JFK' } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ confirmation: 'LIS-JFK-12A', seat: '12A' })
    expect(questions[0]!.message).toContain('Which seat on LIS→JFK?')
    // A form cannot carry `pattern`; the full schema still checks the answer on resume.
    expect(questions[0]!.requestedSchema).toEqual({ type: 'object', properties: { seat: { type: 'string' } }, required: ['seat'] })
    expect((await getRun(runOf(result).runId, transport.sessionId)).body).toMatchObject({ status: 'completed', output: { seat: '12A' } })
  })

  it('asks again when an answer fails the full resumeSchema; the run stays suspended meanwhile', async () => {
    const answers = [{ seat: 'window please' }, { seat: '14C' }]
    const { client, questions } = await connectMcp({ elicitation: () => ({ action: 'accept', content: answers.shift()! }) })
    const result = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'OPO' } })
    expect(result.structuredContent).toEqual({ confirmation: 'LIS-OPO-14C', seat: '14C' })
    expect(questions).toHaveLength(2)
    expect(questions[1]!.message).toContain('The last answer was not accepted: Tool resume data validation failed for book-flight')
  })

  it('cancels the run when the user declines to answer', async () => {
    const { client, transport } = await connectMcp({ elicitation: () => ({ action: 'decline' }) })
    const result = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'MAD' } })
    expect(result.isError).toBe(true)
    expect((await getRun(runOf(result).runId, transport.sessionId)).body.status).toBe('cancelled')
  })

  it('falls back to the run id when the resumeSchema does not fit a form', async () => {
    const { client, questions, transport } = await connectMcp({ elicitation: () => ({ action: 'accept', content: {} }) })
    const result = await client.callTool({ name: 'plan-trip', arguments: { city: 'Porto' } })
    expect(questions).toHaveLength(0)
    expect(result.isError).toBe(true)
    const { runId } = runOf(result)
    expect(textOf(result)).toContain(`POST /runs/${runId}/resume`)
    const resumed = await SELF.fetch(`http://tools.test/runs/${runId}/resume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-session-id': transport.sessionId! },
      body: JSON.stringify({ resumeData: { stops: [{ name: 'Ribeira' }] } }),
    })
    expect(await resumed.json()).toMatchObject({ status: 'completed', output: { stops: ['Ribeira'] } })
  })
})

describe('clients without elicitation', () => {
  it('get an isError result naming the run id, the routes to approve it over HTTP and the session header that reaches them', async () => {
    const { client, transport } = await connectMcp()
    const result = await client.callTool({ name: 'delete-file', arguments: { path: '/tmp/x' } })
    expect(result.isError).toBe(true)
    const run = runOf(result)
    expect(run).toMatchObject({ status: 'approval-required', approvalId: expect.stringMatching(/^approval_/) })
    expect(textOf(result)).toContain(run.runId)
    expect(textOf(result)).toContain(`POST /runs/${run.runId}/approve`)
    expect(textOf(result)).toContain(`POST /runs/${run.runId}/decline`)
    // Every 2025 client has a session (#45): without a credential, the run is the session's.
    expect(textOf(result)).toContain(`Mcp-Session-Id: ${transport.sessionId}`)

    const approved = await SELF.fetch(`http://tools.test/runs/${run.runId}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-session-id': transport.sessionId! },
      body: JSON.stringify({ approvalId: run.approvalId }),
    })
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'completed', output: { deleted: '/tmp/x' } })
  })

  it('get the suspend payload, resume schema and routes of a suspended run', async () => {
    const { client, transport } = await connectMcp()
    const result = await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'FAO' } })
    expect(result.isError).toBe(true)
    const run = runOf(result)
    expect(run.status).toBe('suspended')
    expect(textOf(result)).toContain('Which seat on LIS→FAO?')
    expect(textOf(result)).toContain(`POST /runs/${run.runId}/resume`)
    expect(textOf(result)).toContain('"pattern"')
    expect(textOf(result)).toContain(`Mcp-Session-Id: ${transport.sessionId}`)
    const resumed = await SELF.fetch(`http://tools.test/runs/${run.runId}/resume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-session-id': transport.sessionId! },
      body: JSON.stringify({ resumeData: { seat: '2B' } }),
    })
    expect(await resumed.json()).toMatchObject({ status: 'completed', output: { confirmation: 'LIS-FAO-2B' } })
  })
})

describe('background tools over MCP', () => {
  it('waits for the run in its Durable Object and returns its output', async () => {
    const { client, transport } = await connectMcp()
    const result = await client.callTool({ name: 'generate-report', arguments: { month: '2026-01', delayMs: 50 } })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toEqual({ month: '2026-01', rows: 31 })
    expect((await getRun(runOf(result).runId, transport.sessionId)).body.status).toBe('completed')
  })
})
