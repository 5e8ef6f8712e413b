// SPEC §15 with `basePath: '/v1'`: the built-in authorization server's issuer stays the origin (RFC 8414
// metadata at the root), the resource is `<origin>/v1` (and `/v1/mcp`), its RFC 9728 metadata is found
// where RFC 9728 puts it (`/.well-known/oauth-protected-resource/v1…`) and under basePath, and a token
// got through them calls the tools under /v1.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { WalkingOAuthClient } from '../shared/walking-oauth-client.ts'
import { fixtureProject, servedFixture } from './fixture-project.ts'

const project = fixtureProject(
  'oauth-builtin-base-path',
  {
    'tools/tools.ts': `import { createTool } from 'toolroute'
import { z } from 'zod'

export const whoami = createTool({
  id: 'whoami',
  description: 'Says who calls',
  inputSchema: z.object({}),
  mcp: { annotations: { title: 'Who am I', readOnlyHint: true } },
  execute: async (_, { requestContext }) => ({ user: requestContext.get('user') ?? null }),
})
`,
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'
export default defineConfig({
  basePath: '/v1',
  servedLocally: true,
  idempotency: false,
  playground: false,
  oauth: { provider: 'builtin', scopes: ['tools:call'] },
  resolveRequestContext: (c) => ({ user: c.get('verifiedToken')?.subject }),
})
`,
  },
  { oauthKv: true },
)
const { url } = servedFixture(project)

/** The local sign-in form, filled in as `user`: where it redirects back to, with the code. */
const formWalk = (user: string) => async (authorizationUrl: URL, redirectUrl: string) => {
  const posted = await fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ user }), redirect: 'manual' })
  const location = new URL(posted.headers.get('location') ?? '', authorizationUrl)
  expect([posted.status, location.href.startsWith(redirectUrl)]).toEqual([302, true])
  return location.searchParams.get('code')!
}

describe("oauth: { provider: 'builtin' } under basePath '/v1'", () => {
  it('names the resource under /v1 in its RFC 9728 metadata, where RFC 9728 and SPEC §15 put it, and the origin as the issuer', async () => {
    const metadata = { authorization_servers: [url()], scopes_supported: ['tools:call'], bearer_methods_supported: ['header'] }
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource/v1', `${url()}/v1`],
      ['/.well-known/oauth-protected-resource/v1/mcp', `${url()}/v1/mcp`],
      ['/v1/.well-known/oauth-protected-resource', `${url()}/v1`],
      ['/v1/.well-known/oauth-protected-resource/mcp', `${url()}/v1/mcp`],
    ]) {
      const response = await fetch(`${url()}${path}`)
      expect([path, response.status, await response.json()]).toEqual([path, 200, { resource, ...metadata }])
    }
    const server = (await (await fetch(`${url()}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>
    expect(server).toMatchObject({ issuer: url(), authorization_endpoint: `${url()}/authorize`, token_endpoint: `${url()}/token`, registration_endpoint: `${url()}/register` })
    const bare = await fetch(`${url()}/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })
    expect(bare.status).toBe(401)
    const challenged = /resource_metadata="([^"]+)"/.exec(bare.headers.get('www-authenticate') ?? '')?.[1]
    expect(await (await fetch(challenged!)).json()).toMatchObject({ resource: `${url()}/v1/mcp` })
  })

  it('signs the MCP SDK client in at /v1/mcp, and its token calls the tools under /v1 (and nothing outside it)', async () => {
    const provider = new WalkingOAuthClient(formWalk('alice'))
    const mcp = new URL(`${url()}/v1/mcp`)
    const refused = await new Client({ name: 'test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider })).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(UnauthorizedError)
    await new StreamableHTTPClientTransport(mcp, { authProvider: provider }).finishAuth(provider.code!)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }))
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ structuredContent: { user: 'alice' } })
    await client.close()
    const authorization = `Bearer ${provider.tokens()!.access_token}`
    const called = await fetch(`${url()}/v1/tools/whoami`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}' })
    expect([called.status, await called.json()]).toEqual([200, expect.objectContaining({ status: 'completed', output: { user: 'alice' } })])
    expect((await fetch(`${url()}/tools/whoami`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{}' })).status).toBe(404)
  })
})
