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
