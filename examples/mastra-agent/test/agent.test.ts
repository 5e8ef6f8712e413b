// A Mastra agent (its MCP client, the AI SDK's mock model) against toolroute's /mcp: the chat-agent
// example's Worker under `wrangler dev`, with the same tools the chat uses.
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { toolrouteAgent, toolrouteMcp } from '../src/agent.ts'
import { scriptedModel } from './scripted-model.ts'
import { startWranglerDev } from '../../wrangler-dev.ts'

let server: Awaited<ReturnType<typeof startWranglerDev>>
let state: string

before(async () => {
  state = mkdtempSync(join(tmpdir(), 'mastra-agent-tools-'))
  server = await startWranglerDev(state, '../chat-agent')
})

after(async () => {
  await server?.stop()
  rmSync(state, { recursive: true, force: true })
})

type ToolResult = { payload: { toolName: string; result: unknown } }
const resultsOf = (result: { toolResults: unknown[] }) => (result.toolResults as ToolResult[]).map(({ payload }) => [payload.toolName, payload.result])

test('a Mastra agent calls a toolroute tool over MCP and answers from its result', async () => {
  const mcp = toolrouteMcp(server.url, async () => ({ action: 'decline' }))
  try {
    const agent = await toolrouteAgent(mcp, scriptedModel({ toolName: 'toolroute_index-docs', input: { files: ['agents.md', 'runs.md'] } }))
    const result = await agent.generate('Index agents.md and runs.md', { maxSteps: 3 })
    assert.deepEqual(resultsOf(result), [['toolroute_index-docs', { indexed: 2, tokens: 1600 }]])
    assert.equal(result.text, 'Done: {"type":"text","value":"{\\"indexed\\":2,\\"tokens\\":1600}"}')
  } finally {
    await mcp.disconnect()
  }
})

test('an approval tool asks through the MCP client; the answer approves its run, which runs once', async () => {
  const asked: string[] = []
  const mcp = toolrouteMcp(server.url, async ({ params }) => {
    asked.push(params.message)
    return { action: 'accept', content: { approved: true } }
  })
  try {
    const agent = await toolrouteAgent(mcp, scriptedModel({ toolName: 'toolroute_delete-file', input: { path: 'notes.txt' } }))
    const result = await agent.generate('Delete notes.txt', { maxSteps: 3 })
    assert.equal(asked.length, 1)
    assert.match(asked[0]!, /^Allow delete-file to run with these arguments\?/)
    assert.deepEqual(resultsOf(result), [['toolroute_delete-file', { deleted: 'notes.txt' }]])
  } finally {
    await mcp.disconnect()
  }
})

test('declined through the MCP client: the tool never runs, and the agent is told so', async () => {
  const mcp = toolrouteMcp(server.url, async () => ({ action: 'accept', content: { approved: false, reason: 'not that one' } }))
  try {
    const agent = await toolrouteAgent(mcp, scriptedModel({ toolName: 'toolroute_delete-file', input: { path: 'keep.txt' } }))
    const result = await agent.generate('Delete keep.txt', { maxSteps: 3 })
    // toolroute's isError result is a failed tool call in Mastra (onToolError: 'throw'); the model sees its text.
    assert.deepEqual(result.toolResults, [])
    assert.equal(result.text, 'Done: {"type":"error-text","value":"The user declined to run delete-file: not that one. It did not run."}')
  } finally {
    await mcp.disconnect()
  }
})
