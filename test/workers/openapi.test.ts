import { SELF } from 'cloudflare:test'
import { Validator } from '@cfworker/json-schema'
import { describe, expect, it } from 'vitest'
import openApi31Schema from '../fixtures/openapi-3.1-schema.json'
import { origin } from './http-client.ts'

type Operation = {
  operationId?: string
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  responses: Record<string, { content?: Record<string, { schema: Record<string, any> }> }>
}
type Document = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } }
type Descriptor = { id: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> }

async function load() {
  const document = (await (await SELF.fetch(`${origin}/openapi.json`)).json()) as Document
  const { tools } = (await (await SELF.fetch(`${origin}/tools`)).json()) as { tools: Descriptor[] }
  return { document, tools }
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (against the official OAS 3.1 schema)', async () => {
    const { document } = await load()
    const result = new Validator(openApi31Schema as never, '2020-12', false).validate(document)
    expect(result.errors.slice(0, 5)).toEqual([])
    expect(result.valid).toBe(true)
    expect(document.openapi).toMatch(/^3\.1\.\d+$/)
  })

  it('the validator used above does reject a broken document', () => {
    const validator = new Validator(openApi31Schema as never, '2020-12', false)
    expect(validator.validate({ openapi: '3.1.0', paths: {} }).valid).toBe(false) // no info
    expect(validator.validate({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/x': { post: { responses: { 200: {} } } } } }).valid).toBe(false) // response without description
  })

  it('has one path per tool, /tools/<encodeURIComponent(id)>, with its own input and output schemas', async () => {
    const { document, tools } = await load()
    const toolPaths = Object.keys(document.paths).filter((path) => path.startsWith('/tools/'))
    expect(toolPaths.sort()).toEqual(tools.map((tool) => `/tools/${encodeURIComponent(tool.id)}`).sort())
    const operationIds = new Set<string>()
    for (const tool of tools) {
      const operation = document.paths[`/tools/${encodeURIComponent(tool.id)}`]!.post!
      expect(Object.keys(document.paths[`/tools/${encodeURIComponent(tool.id)}`]!)).toEqual(['post'])
      operationIds.add(operation.operationId!)
      expect(operation.requestBody!.content['application/json']!.schema).toEqual(tool.inputSchema)
      const completed = operation.responses['200']!.content!['application/json']!.schema
      if (tool.outputSchema) expect(completed.properties.output).toEqual(tool.outputSchema)
      expect(Object.keys(operation.responses['200']!.content!)).toContain('text/event-stream')
      for (const status of ['400', '404', '413', '415', '500']) expect(operation.responses[status], `${tool.id} ${status}`).toBeDefined()
    }
    expect(operationIds.size).toBe(tools.length)
  })

  it('its schemas compile as JSON Schema 2020-12 and check what the routes really answer', async () => {
    const { document } = await load()
    const weather = document.paths['/tools/weather-tool']!.post!
    const input = new Validator(weather.requestBody!.content['application/json']!.schema as never, '2020-12')
    expect(input.validate({ location: 'Paris' }).valid).toBe(true)
    expect(input.validate({ location: 3 }).valid).toBe(false)
    const response = await SELF.fetch(`${origin}/tools/weather-tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"location":"Paris"}' })
    const completed = new Validator(weather.responses['200']!.content!['application/json']!.schema as never, '2020-12')
    expect(completed.validate(await response.json()).valid).toBe(true)
    const error = new Validator({ ...(document.components.schemas.Error as object) } as never, '2020-12')
    const failed = await SELF.fetch(`${origin}/tools/weather-tool`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"location":1}' })
    expect(error.validate(await failed.json()).valid).toBe(true)
    expect(error.validate({ error: { code: 'NOT_A_CODE', message: 'x' } }).valid).toBe(false)
  })

  it('lists the run routes', async () => {
    const { document } = await load()
    for (const path of ['/runs/{runId}', '/runs/{runId}/events', '/runs/{runId}/approve', '/runs/{runId}/decline', '/runs/{runId}/resume', '/runs/{runId}/cancel']) {
      expect(document.paths[path], path).toBeDefined()
    }
  })
})
