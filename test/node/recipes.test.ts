// The recipes of docs/agents.md (issue 49: a mock-model agent, an approval round trip with generateText),
// run: the page shows each file of test/node/recipes/ as it is (checked below), and these tests run those
// files against a real app.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createTool } from 'toolroute'
import { createToolClient } from 'toolroute/client'
import { createToolApp } from 'toolroute/server'
import { z } from 'zod'
import { askWithApproval } from './recipes/ask-with-approval.ts'
import { scriptedModel } from './recipes/scripted-model.ts'

const deleteFile = createTool({
  id: 'delete-file',
  description: 'Delete a file',
  inputSchema: z.object({ path: z.string() }),
  requireApproval: true,
  execute: async ({ path }) => ({ deleted: path }),
})
const lookupAccount = createTool({
  id: 'lookup-account',
  description: 'Find a customer account by email',
  inputSchema: z.object({ email: z.string() }),
  execute: async ({ email }) => ({ name: email.split('@')[0]!, plan: 'pro' }),
  toModelOutput: (output) => `${output.name} is on the ${output.plan} plan`,
})
const app = createToolApp({ tools: [lookupAccount, deleteFile] })
const client = createToolClient({ baseUrl: 'http://tools.test', fetch: async (request) => app.fetch(request) })

describe('docs/agents.md: a mock model, and an approval round trip with generateText', () => {
  it('approved: the tool runs once, on the server, and the model answers from its result', async () => {
    const asked: unknown[] = []
    const text = await askWithApproval(scriptedModel('delete-file', { path: '/tmp/a' }), client, 'Delete /tmp/a', async (call) => (asked.push(call), true))
    expect(asked).toEqual([expect.objectContaining({ toolName: 'delete-file', input: { path: '/tmp/a' } })])
    expect(text).toBe('Done: {"type":"json","value":{"deleted":"/tmp/a"}}')
  })

  it('declined: the server never sees the call, and the model is told it was denied', async () => {
    const seen: string[] = []
    const watched = createToolClient({ baseUrl: 'http://tools.test', fetch: async (request) => (seen.push(new URL(request.url).pathname), app.fetch(request)) })
    const text = await askWithApproval(scriptedModel('delete-file', { path: '/keep' }, 'call_2'), watched, 'Delete /keep', async () => false)
    expect(text).toMatch(/^Done: .*execution-denied/)
    expect(seen).toEqual(['/tools'])
  })

  it('a tool that needs no approval answers at once, through toModelOutput', async () => {
    const text = await askWithApproval(scriptedModel('lookup-account', { email: 'ada@example.com' }, 'call_3'), client, 'Who is ada?', async () => {
      throw new Error('not asked')
    })
    expect(text).toBe('Done: {"type":"text","value":"ada is on the pro plan"}')
  })
})

describe('the pages show these files as they are', () => {
  const pages = ['docs/agents.md']
  const blocks = pages.flatMap((page) => [...readFileSync(page, 'utf8').matchAll(/<!-- from: (test\/node\/recipes\/\S+) -->\n```ts\n([\s\S]*?)\n```/g)].map(([, from, code]) => ({ page, from: from!, code: code! })))
  it('each recipe file is on its page', () => {
    expect(blocks.map(({ page, from }) => `${page} ${from}`)).toEqual([
      'docs/agents.md test/node/recipes/ask-with-approval.ts',
      'docs/agents.md test/node/recipes/scripted-model.ts',
    ])
  })
  it.each(blocks)('$page shows $from as it is', ({ from, code }) => {
    expect(code).toBe(readFileSync(from, 'utf8').replace(/\n+$/, ''))
  })
})
