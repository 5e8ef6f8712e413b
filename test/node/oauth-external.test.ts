import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SignJWT, UnsecuredJWT, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from 'toolroute'
import { createToolApp } from 'toolroute/server'
import { serveApp } from '../e2e/serve-app.ts'
import { startOpenIdProvider } from '../shared/local-openid-provider.ts'
import { WalkingOAuthClient } from '../shared/walking-oauth-client.ts'
import { expectRunKeptToItsUser } from '../shared/run-kept-to-its-user.ts'

// SPEC §15 against a real OpenID provider (oidc-provider, run here): JWT access tokens for the
// resource (RFC 8707), got by the MCP SDK's own OAuth client (dynamic registration, PKCE).
const tools = [
  createTool({ id: 'echo', description: 'echo', inputSchema: z.object({ text: z.string() }), execute: async ({ text }, { requestContext }) => ({ text, user: requestContext.get('user') ?? null }) }),
  createTool({ id: 'admin', description: 'admin', inputSchema: z.object({}), execute: async () => ({ ok: true }) }),
  createTool({ id: 'deploy', description: 'deploy', requireApproval: true, inputSchema: z.object({}), execute: async () => ({ deployed: true }) }),
]
const scopes = ['tools:call', 'tools:admin']

let idp: Awaited<ReturnType<typeof startOpenIdProvider>>
let app: Awaited<ReturnType<typeof serveApp>>

beforeAll(async () => {
  idp = await startOpenIdProvider(scopes)
  const server = createToolApp({
    tools,
    oauth: { issuer: idp.issuer, scopes: ['tools:call'], toolScopes: { admin: ['tools:admin'] } },
    // The verified claims reach the resolver: the request context comes from the token.
    resolveRequestContext: (c) => ({ user: c.get('verifiedToken')?.subject }),
  })
  app = await serveApp((request) => server.fetch(request))
})
afterAll(async () => {
  await app?.close()
  await idp?.close()
})

/** Signs `user` in through the SDK's OAuth flow, granted `consent`, and answers the connected client and its token. */
async function signIn(user: string, consent = scopes) {
  Object.assign(idp.user, { signInAs: user, consentTo: consent })
  const provider = new WalkingOAuthClient()
  const url = new URL(`${app.url}/mcp`)
  const first = new Client({ name: 'test', version: '1.0.0' })
  const refused = await first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(UnauthorizedError)
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider })
  await transport.finishAuth(provider.code!)
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))
  return { client, token: provider.tokens()!.access_token, provider }
}

const call = (path: string, token: string | undefined, body?: unknown) =>
  fetch(`${app.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('oauth with an external issuer (oidc-provider)', () => {
  it('serves RFC 9728 metadata at the root and for /mcp, without a token', async () => {
    for (const [path, resource] of [['/.well-known/oauth-protected-resource', app.url], ['/.well-known/oauth-protected-resource/mcp', `${app.url}/mcp`]]) {
      const response = await call(path!, undefined)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ resource, authorization_servers: [idp.issuer], scopes_supported: scopes, bearer_methods_supported: ['header'] })
    }
  })

  it('challenges a request without a token on every route and on /mcp, naming the metadata and the scopes', async () => {
    for (const [path, body, metadata] of [
      ['/tools', undefined, ''],
      ['/tools/echo', { text: 'hi' }, ''],
      ['/runs/x', undefined, ''],
      ['/openapi.json', undefined, ''],
      ['/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, '/mcp'],
    ] as const) {
      const response = await call(path, undefined, body)
      expect([path, response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([path, 401, 'UNAUTHORIZED'])
      expect(response.headers.get('www-authenticate')).toBe(`Bearer scope="tools:call tools:admin", resource_metadata="${app.url}/.well-known/oauth-protected-resource${metadata}"`)
    }
  })

  it('signs in with the MCP SDK (registration, PKCE, resource indicator) and calls a tool as the signed-in user', async () => {
    const { client, token } = await signIn('alice')
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    expect(result.structuredContent).toEqual({ text: 'hi', user: 'alice' })
    expect((await client.listTools()).tools.map(({ name }) => name).sort()).toEqual(['admin', 'deploy', 'echo'])
    // The same token is good on the HTTP routes (one server, one set of tools).
    const answer = await call('/tools/echo', token, { text: 'over http' })
    expect(await answer.json()).toMatchObject({ status: 'completed', output: { text: 'over http', user: 'alice' } })
    await client.close()
  })

  it('refuses an expired, foreign-audience, wrongly signed or unsigned token with 401 invalid_token', async () => {
    const claims = { sub: 'alice', scope: 'tools:call tools:admin' }
    const signed = (key: CryptoKey, edit: (jwt: SignJWT) => SignJWT) =>
      edit(new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).setIssuer(idp.issuer).setIssuedAt()).sign(key)
    const stranger = (await generateKeyPair('RS256')).privateKey
    const tokens = {
      expired: await signed(idp.privateKey, (jwt) => jwt.setAudience(`${app.url}/mcp`).setIssuedAt(1_000).setExpirationTime(2_000)),
      'foreign audience': await signed(idp.privateKey, (jwt) => jwt.setAudience('https://elsewhere.example/mcp').setExpirationTime('5m')),
      'not yet valid': await signed(idp.privateKey, (jwt) => jwt.setAudience(`${app.url}/mcp`).setNotBefore('1h').setExpirationTime('2h')),
      'another key': await signed(stranger, (jwt) => jwt.setAudience(`${app.url}/mcp`).setExpirationTime('5m')),
      'alg none': new UnsecuredJWT(claims).setIssuer(idp.issuer).setAudience(`${app.url}/mcp`).setExpirationTime('5m').encode(),
      garbage: 'not-a-jwt',
    }
    // The real one works: what fails below fails for what was forged.
    const good = await signed(idp.privateKey, (jwt) => jwt.setAudience(`${app.url}/mcp`).setExpirationTime('5m'))
    expect((await call('/tools', good)).status).toBe(200)
    for (const [name, token] of Object.entries(tokens)) {
      for (const [path, body] of [['/tools/echo', { text: 'x' }], ['/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }]] as const) {
        const response = await call(path, token, body)
        const text = await response.text()
        expect([name, path, response.status, JSON.parse(text).error.code]).toEqual([name, path, 401, 'UNAUTHORIZED'])
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", scope="tools:call tools:admin", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource(\/mcp)?"$/)
        expect(text).not.toContain(token)
      }
    }
  })

  it('answers 403 INSUFFICIENT_SCOPE for a tool whose scope the token lacks, and lists only what it may call', async () => {
    const { client, token, provider } = await signIn('carol', ['tools:call'])
    const refused = await call('/tools/admin', token, {})
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: { code: 'INSUFFICIENT_SCOPE' } })
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="tools:call tools:admin", resource_metadata="${app.url}/.well-known/oauth-protected-resource"`)
    const mcp = await client.callTool({ name: 'admin', arguments: {} })
    expect(mcp).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('tools:admin') }] })
    expect((await client.listTools()).tools.map(({ name }) => name).sort()).toEqual(['deploy', 'echo'])
    // A client that answers forms gets a 2025 session (its answers as SSE): the same refusals.
    const inSession = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } })
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { authProvider: provider })
    await inSession.connect(transport)
    expect(transport.sessionId).toBeDefined()
    expect((await inSession.listTools()).tools.map(({ name }) => name).sort()).toEqual(['deploy', 'echo'])
    expect(await inSession.callTool({ name: 'admin', arguments: {} })).toMatchObject({ isError: true })
    expect(await inSession.callTool({ name: 'echo', arguments: { text: 'in a session' } })).toMatchObject({ structuredContent: { text: 'in a session', user: 'carol' } })
    await inSession.close()
    const mastra = (await (await call('/api/tools', token)).json()) as Record<string, unknown>
    expect(Object.keys(mastra).sort()).toEqual(['deploy', 'echo'])
    const listed = (await (await call('/tools', token)).json()) as { tools: { id: string }[] }
    expect(listed.tools.map(({ id }) => id).sort()).toEqual(['deploy', 'echo'])
    const openApi = (await (await call('/openapi.json', token)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(openApi.paths).filter((path) => path.startsWith('/tools/'))).not.toContain('/tools/admin')
    expect(Object.keys(openApi.paths)).toContain('/tools/echo')
    // What it may call, it calls.
    expect(await (await call('/tools/echo', token, { text: 'ok' })).json()).toMatchObject({ status: 'completed', output: { user: 'carol' } })
    await client.close()
  })

  it("keeps a run to the user who started it: another user's token gets RUN_NOT_FOUND", () => expectRunKeptToItsUser(app.url, signIn))
})
