// SPEC §5 under a real, plain `wrangler dev` of a toolroute build (global-setup): wrangler's [build]
// hook runs `toolroute build` with WRANGLER_COMMAND=dev, so the entry is served locally and every
// route refuses a foreign Host (DNS rebinding), whatever the request says of itself.
import { request } from 'node:http'
import { describe, expect, inject, it } from 'vitest'

const base = new URL(inject('baseUrl'))

/** A request with any `Host` (fetch sends the URL's own). */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: base.hostname, port: base.port, method, path, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (incoming) => {
      let text = ''
      incoming.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: incoming.statusCode!, text }))
    })
    outgoing.once('error', reject)
    outgoing.end(body)
  })
}

const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebinding', version: '1' } } })
const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'weather-tool', arguments: { location: 'Oslo' } } })

describe('plain wrangler dev of a toolroute build', () => {
  it('refuses Host evil.example.com with 403 on every route, MCP included, even claiming a loopback client', async () => {
    const evil = { host: 'evil.example.com', origin: 'http://evil.example.com', 'cf-connecting-ip': '127.0.0.1', 'x-forwarded-for': '127.0.0.1' }
    const requests: [string, string, Record<string, string>, string?][] = [
      ['POST', '/mcp', { ...mcp, ...evil }, initialize],
      ['POST', '/mcp', { ...mcp, ...evil, 'mcp-protocol-version': '2025-06-18' }, call],
      ['GET', '/', evil],
      ['GET', '/tools', evil],
      ['POST', '/tools/weather-tool', { 'content-type': 'application/json', ...evil }, '{"location":"Oslo"}'],
      ['GET', '/runs/run_x', evil],
      ['POST', '/runs/run_x/cancel', evil],
      ['GET', '/openapi.json', evil],
    ]
    for (const [method, path, headers, body] of requests) {
      const response = await send(method, path, headers, body)
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'FORBIDDEN' } })
    }
  })

  it('answers loopback Hosts with any port', async () => {
    for (const host of [`localhost:${base.port}`, `127.0.0.1:${base.port}`, '[::1]']) {
      expect((await send('GET', '/tools', { host })).status, host).toBe(200)
      expect((await send('POST', '/mcp', { ...mcp, host, origin: `http://localhost:${base.port}` }, initialize)).status, host).toBe(200)
    }
  })
})
