import { bearerAuth } from 'hono/bearer-auth'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../tool/create-tool.ts'
import { createToolApp } from './create-tool-app.ts'

const tools = ['weather', 'stocks', 'news'].map((id) =>
  createTool({ id, description: id, inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ id, q }) }),
)

describe('createToolApp routing', () => {
  // Hono's SmartRouter settles on the first router that accepts every route. RegExpRouter matches
  // in one regex; a route layout it refuses (e.g. a static path under a pattern) silently moves
  // every request to TrieRouter, measurably slower (bench/isolate.bench.mjs).
  it('stays on RegExpRouter with every option that adds routes', async () => {
    const app = createToolApp({ tools, basePath: '/api/v1', cors: true, auth: bearerAuth({ token: 't' }) })
    const response = await app.request('/api/v1/tools/stocks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: JSON.stringify({ q: 'ACME' }),
    })
    expect(await response.json()).toMatchObject({ status: 'completed', output: { id: 'stocks', q: 'ACME' } })
    expect((app.router as unknown as { activeRouter: { name: string } }).activeRouter.name).toBe('RegExpRouter')
  })
})

describe('createToolApp refuses tools it could not tell apart', () => {
  const tool = (id: string) => createTool({ id, description: 'x', execute: async () => id })

  it('two tools with one id', () => {
    expect(() => createToolApp({ tools: [tool('same'), tool('same')] })).toThrow('Two tools have the id "same"')
  })

  it('two ids that map to one MCP name, naming both', () => {
    expect(() => createToolApp({ tools: [tool('Lookup order'), tool('Lookup_order')] })).toThrow('Tools "Lookup order" and "Lookup_order" have one MCP name "Lookup_order"')
    expect(() => createToolApp({ tools: [tool('a b'), tool('a/b')] })).toThrow('have one MCP name "a_b"')
  })

  it('serves an id with a space and one with a slash at their encoded routes', async () => {
    const app = createToolApp({ tools: [tool('Lookup order'), tool('a/b')] })
    for (const id of ['Lookup order', 'a/b']) {
      const response = await app.request(`/tools/${encodeURIComponent(id)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ status: 'completed', output: id })
    }
  })
})
