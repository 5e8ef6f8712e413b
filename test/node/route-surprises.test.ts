// The small surprises of a first hour (issue #49): a wrong method, a bogus view, a base path with a
// trailing slash, a resume body without its wrapper. Each answers at once with a spec code that says why.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/runtime/create-tool.ts'
import { createToolApp } from '../../src/server.ts'

const greet = createTool({ id: 'greet', description: 'Greets', inputSchema: z.object({ name: z.string() }), execute: async ({ name }) => ({ message: `Hello, ${name}!` }) })
const ask = createTool({
  id: 'ask',
  description: 'Asks',
  resumeSchema: z.object({ answer: z.string() }),
  execute: async (_input, { agent }) => (agent?.resumeData ? agent.resumeData : agent?.suspend({ question: 'Which?' })),
})
const json = { 'content-type': 'application/json' }
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error

describe('a known path with a method it does not serve', () => {
  it.each([
    ['PUT', '/tools/greet', 'GET, POST'],
    ['DELETE', '/tools/greet', 'GET, POST'],
    ['POST', '/tools', 'GET'],
    ['PATCH', '/runs/r1', 'GET'],
    ['POST', '/runs/r1/events', 'GET'],
    ['GET', '/runs/r1/approve', 'POST'],
    ['GET', '/runs/r1/cancel', 'POST'],
    ['DELETE', '/openapi.json', 'GET'],
  ])('%s %s answers 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const response = await createToolApp({ tools: [greet] }).request(path, { method })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe(allow)
    expect(await errorOf(response)).toEqual({ code: 'METHOD_NOT_ALLOWED', message: `${path} does not serve ${method}; it serves ${allow}` })
  })

  it('under a base path too, and an unknown path is still TOOL_NOT_FOUND', async () => {
    const app = createToolApp({ tools: [greet], basePath: '/v1' })
    const wrong = await app.request('/v1/tools/greet', { method: 'PUT' })
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, POST'])
    for (const [method, path] of [['PUT', '/nowhere'], ['PUT', '/tools/greet'], ['GET', '/v1/tools/greet/extra']]) {
      const response = await app.request(path!, { method })
      expect([path, response.status, (await errorOf(response)).code]).toEqual([path, 404, 'TOOL_NOT_FOUND'])
    }
  })
})

describe('?view=', () => {
  it('an unknown view is refused before the tool runs, naming the views', async () => {
    let ran = 0
    const counted = createTool({ id: 'counted', description: 'x', execute: async () => ++ran })
    const response = await createToolApp({ tools: [counted] }).request('/tools/counted?view=bogus', { method: 'POST', headers: json, body: '{}' })
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toMatchObject({ code: 'INPUT_VALIDATION_FAILED', message: 'Unknown view "bogus": ?view= takes display, raw, transcript' })
    expect(ran).toBe(0)
  })

  it('the known views (and none) still answer', async () => {
    const app = createToolApp({ tools: [greet] })
    for (const query of ['', '?view=display', '?view=raw', '?view=transcript', '?view=']) {
      const response = await app.request(`/tools/greet${query}`, { method: 'POST', headers: json, body: '{"name":"Ada"}' })
      expect([query, response.status]).toEqual([query, 200])
    }
  })
})

describe("basePath: '/v1'", () => {
  it('serves the playground at /v1 and /v1/ alike', async () => {
    const app = createToolApp({ tools: [greet], basePath: '/v1' })
    for (const path of ['/v1', '/v1/']) {
      const response = await app.request(`http://localhost:8787${path}`)
      expect([path, response.status]).toEqual([path, 200])
      expect(await response.text()).toContain('<title>toolroute playground</title>')
    }
    expect((await app.request('http://localhost:8787/v1/tools')).status).toBe(200)
  })
})

describe('a resume body without its resumeData wrapper', () => {
  it('answers RESUME_VALIDATION_FAILED naming resumeData and the shape, and the run stays suspended', async () => {
    const app = createToolApp({ tools: [ask] })
    const call = await app.request('/tools/ask', { method: 'POST', headers: json, body: '{}' })
    const { runId, status } = (await call.json()) as { runId: string; status: string }
    expect(status).toBe('suspended')
    const bare = await app.request(`/runs/${runId}/resume`, { method: 'POST', headers: json, body: '{"answer":"yes"}' })
    expect(bare.status).toBe(400)
    const error = await errorOf(bare)
    expect(error.code).toBe('RESUME_VALIDATION_FAILED')
    expect(error.message).toBe('Invalid request body: resumeData: Required: the body is { "resumeData": <data matching the run\'s resumeSchema> }')
    const wrapped = await app.request(`/runs/${runId}/resume`, { method: 'POST', headers: json, body: '{"resumeData":{"answer":"yes"}}' })
    expect(await wrapped.json()).toMatchObject({ status: 'completed', output: { answer: 'yes' } })
  })
})
