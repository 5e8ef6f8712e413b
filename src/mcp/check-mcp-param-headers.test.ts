import { describe, expect, it } from 'vitest'
import { checkMcpParamHeaders } from './check-mcp-param-headers.ts'

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    limits: { type: 'object', properties: { count: { type: 'integer', 'x-mcp-header': 'Count' } } },
    note: { type: 'string' },
  },
}

const request = (headers: Record<string, string>) => new Request('http://tools.test/mcp', { method: 'POST', headers })

async function refusal(headers: Record<string, string>, args: unknown) {
  const response = checkMcpParamHeaders(request(headers), 9, schema, args)
  return response && { status: response.status, body: (await response.json()) as { id: unknown; error: { code: number; message: string } } }
}

describe('checkMcpParamHeaders (SEP-2243 x-mcp-header)', () => {
  it('accepts a header equal to the argument, literal or Base64, and numbers compared as numbers', async () => {
    expect(await refusal({ 'mcp-param-region': 'eu-west' }, { region: 'eu-west' })).toBeUndefined()
    const utf8 = btoa(String.fromCharCode(...new TextEncoder().encode('Zürich')))
    expect(await refusal({ 'mcp-param-region': `=?base64?${utf8}?=` }, { region: 'Zürich' })).toBeUndefined()
    expect(await refusal({ 'mcp-param-region': '=?base64?SGVsbG8=?=' }, { region: 'Hello' })).toBeUndefined()
    // Without the closing ?= the value is literal.
    expect(await refusal({ 'mcp-param-region': '=?base64?SGVsbG8=' }, { region: '=?base64?SGVsbG8=' })).toBeUndefined()
    expect(await refusal({ 'mcp-param-region': 'x', 'mcp-param-count': '42.0' }, { region: 'x', limits: { count: 42 } })).toBeUndefined()
  })

  it('needs no header for an argument that is absent or null', async () => {
    expect(await refusal({}, {})).toBeUndefined()
    expect(await refusal({}, { region: null, note: 'n' })).toBeUndefined()
  })

  it('refuses a missing, undecodable or different header with 400 and -32020, echoing the id', async () => {
    for (const [headers, args] of [
      [{}, { region: 'eu-west' }],
      [{ 'mcp-param-region': '=?base64?SGVsbG8?=' }, { region: 'Hello' }],
      [{ 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, { region: 'Hello' }],
      [{ 'mcp-param-region': 'us-east' }, { region: 'eu-west' }],
      [{ 'mcp-param-region': 'x' }, { region: 'x', limits: { count: 7 } }],
    ] as const) {
      const refused = await refusal(headers, args)
      expect(refused?.status).toBe(400)
      expect(refused?.body).toMatchObject({ id: 9, error: { code: -32020 } })
    }
  })
})
