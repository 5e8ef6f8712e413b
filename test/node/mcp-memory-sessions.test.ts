import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { createToolApp } from 'toolroute/server'
import { askName } from '../fixtures/mcp-tools.ts'
import { bookFlight } from '../../tools/book-flight.ts'
import { deleteFile } from '../../tools/delete-file.ts'

// createToolApp under Node keeps MCP sessions in this process's memory: one process serves
// every request of a session, so elicitation works without Durable Objects.
const app = createToolApp({ tools: [askName, deleteFile, bookFlight] })
const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

async function connect(answers: Record<string, unknown>[], headers: Record<string, string> = {}) {
  const client = new Client({ name: 'node-test', version: '1.0.0' }, { capabilities: { elicitation: {} } })
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: answers.shift() ?? {} }))
  const transport = new StreamableHTTPClientTransport(new URL('http://node.test/mcp'), {
    fetch: async (url, init) => app.fetch(new Request(url, init)),
    requestInit: { headers },
  })
  clients.push(client)
  await client.connect(transport)
  return { client, transport }
}

describe('MCP sessions in memory (Node)', () => {
  it('holds a session between requests, so a tool can ask the user mid-call', async () => {
    const { client, transport } = await connect([{ name: 'Ada' }])
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const result = await client.callTool({ name: 'ask-name', arguments: {} })
    expect(result.structuredContent).toEqual({ text: 'Hello, Ada', action: 'accept' })
  })

  it('approves and resumes runs through elicitation on the in-memory run host', async () => {
    const { client } = await connect([{ approved: true }, { seat: '3C' }])
    expect((await client.callTool({ name: 'delete-file', arguments: { path: '/n' } })).structuredContent).toEqual({ deleted: '/n' })
    expect((await client.callTool({ name: 'book-flight', arguments: { from: 'LIS', to: 'BCN' } })).structuredContent).toEqual({
      confirmation: 'LIS-BCN-3C',
      seat: '3C',
    })
  })

  it('answers a session only to its principal, and forgets it on DELETE', async () => {
    const { transport } = await connect([], { authorization: 'Bearer alice' })
    const sessionId = transport.sessionId!
    const list = (authorization: string) =>
      app.fetch(
        new Request('http://node.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, authorization },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        }),
      )
    expect((await list('Bearer mallory')).status).toBe(404)
    const alice = await list('Bearer alice')
    expect(alice.status).toBe(200)
    await alice.text()
    await transport.terminateSession()
    expect((await list('Bearer alice')).status).toBe(404)
  })
})
