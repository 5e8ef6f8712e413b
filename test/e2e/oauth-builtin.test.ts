// SPEC §15's second source of tokens: toolroute as its own authorization server on Workers
// (@cloudflare/workers-oauth-provider), written into the entry by `toolroute build`, bundled by
// wrangler and served on workerd. The MCP SDK's own OAuth client registers itself, signs in with
// PKCE through the local sign-in form (no network) and calls a tool; two users' runs are apart.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { WalkingOAuthClient } from '../shared/walking-oauth-client.ts'
import { expectRunKeptToItsUser } from '../shared/run-kept-to-its-user.ts'
import { fixtureProject, servedFixture } from './fixture-project.ts'
import { freePort } from './wrangler-dev.ts'

const tools = `import { createTool } from 'toolroute'
import { z } from 'zod'

export const whoami = createTool({
  id: 'whoami',
  description: 'Says who calls',
  inputSchema: z.object({}),
  mcp: { annotations: { title: 'Who am I', readOnlyHint: true } },
  execute: async (_, { requestContext }) => ({ user: requestContext.get('user') ?? null }),
})

export const deploy = createTool({
  id: 'deploy',
  description: 'Deploys, once approved',
  requireApproval: true,
  inputSchema: z.object({}),
  mcp: { annotations: { title: 'Deploy', destructiveHint: true } },
  execute: async () => ({ deployed: true }),
})
`
const project = fixtureProject(
  'oauth-builtin',
  {
    'tools/tools.ts': tools,
    // servedLocally, as under \`toolroute dev\`: /authorize is the local sign-in form.
    'toolroute.config.ts': `import { defineConfig } from 'toolroute/workers'
export default defineConfig({
  servedLocally: true,
  playground: false,
  oauth: { provider: 'builtin', scopes: ['tools:call'], toolScopes: { deploy: ['tools:deploy'] } },
  resolveRequestContext: (c) => ({ user: c.get('verifiedToken')?.subject }),
})
`,
  },
  { idempotencyBinding: true, oauthKv: true },
)
const { url } = servedFixture(project)

/** The user at the local sign-in form: reads it, then posts `user` to it, and answers where it redirects back to. */
async function signInAt(authorizationUrl: URL, user: string, redirectUrl: string): Promise<URL> {
  const form = await fetch(authorizationUrl)
  const html = await form.text()
  expect([form.status, html]).toEqual([200, expect.stringContaining('<form method="post">')])
  const posted = await fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ user }), redirect: 'manual' })
  const location = new URL(posted.headers.get('location') ?? '', authorizationUrl)
  expect([posted.status, location.href.startsWith(redirectUrl)]).toEqual([302, true])
  return location
}
const formWalk = (user: string) => async (authorizationUrl: URL, redirectUrl: string) => (await signInAt(authorizationUrl, user, redirectUrl)).searchParams.get('code')!

/** Signs `user` in through the SDK's OAuth flow (dynamic registration, PKCE) and answers the connected client and its token. */
async function signIn(user: string) {
  const provider = new WalkingOAuthClient(formWalk(user))
  const mcp = new URL(`${url()}/mcp`)
  const refused = await new Client({ name: 'test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider })).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(UnauthorizedError)
  await new StreamableHTTPClientTransport(mcp, { authProvider: provider }).finishAuth(provider.code!)
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }))
  return { client, token: provider.tokens()!.access_token, provider }
}

const call = (path: string, token?: string, body?: unknown) =>
  fetch(`${url()}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe("oauth: { provider: 'builtin' } on workerd", () => {
  it('is written into the entry by toolroute build, with the Durable Objects kept', () => {
    const entry = readFileSync(join(project.dir, '.toolroute/worker.ts'), 'utf8')
    expect(entry).toContain('oauthGuard: workerBuiltinOAuth')
    expect(entry).toContain('export default withBuiltinOAuth({ fetch: worker.fetch }, { config, servedLocally: true })')
    expect(entry).toContain('export class ToolRunObject extends worker.ToolRunObject {}')
    expect(entry).not.toContain('workerOAuth,')
  })

  it('answers its metadata: RFC 9728 naming itself as the authorization server, RFC 8414 from the library', async () => {
    const resource = await (await call('/.well-known/oauth-protected-resource/mcp')).json()
    expect(resource).toEqual({ resource: `${url()}/mcp`, authorization_servers: [url()], scopes_supported: ['tools:call', 'tools:deploy'], bearer_methods_supported: ['header'] })
    const server = (await (await call('/.well-known/oauth-authorization-server')).json()) as Record<string, unknown>
    expect(server).toMatchObject({ issuer: url(), authorization_endpoint: `${url()}/authorize`, token_endpoint: `${url()}/token`, registration_endpoint: `${url()}/register` })
    expect(server.code_challenge_methods_supported).toContain('S256')
  })

  it('refuses a request without a token, or with a made-up one, with a challenge naming the metadata', async () => {
    const bare = await call('/tools/whoami', undefined, {})
    expect([bare.status, bare.headers.get('www-authenticate')]).toEqual([401, `Bearer scope="tools:call tools:deploy", resource_metadata="${url()}/.well-known/oauth-protected-resource"`])
    const forged = await call('/tools/whoami', 'user:grant:secret', {})
    expect(forged.status).toBe(401)
    expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const mcp = await fetch(`${url()}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })
    expect([mcp.status, mcp.headers.get('www-authenticate')]).toEqual([401, `Bearer scope="tools:call tools:deploy", resource_metadata="${url()}/.well-known/oauth-protected-resource/mcp"`])
  })

  it('signs the MCP SDK client in through the local sign-in, and its token calls tools as that user', async () => {
    const { client, token } = await signIn('alice')
    const result = await client.callTool({ name: 'whoami', arguments: {} })
    expect(result).toMatchObject({ structuredContent: { user: 'alice' } })
    expect(await (await call('/tools/whoami', token, {})).json()).toMatchObject({ status: 'completed', output: { user: 'alice' } })
    await client.close()
  })

  it("keeps a run to the user who started it: another user's token gets RUN_NOT_FOUND", () => expectRunKeptToItsUser(url(), signIn))

  it('signs mcp-remote 0.15 in (stdio, as Claude Desktop runs it): the URL it would open in a browser, walked through the form', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-'))
    const proxy = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js')
    const callbackPort = await freePort()
    // No browser here (BROWSER=false fails, so does xdg-open without a display): the test is the browser, reading the URL it logs.
    const env = { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: 'false', DISPLAY: '' }
    const transport = new StdioClientTransport({ command: process.execPath, args: [proxy, `${url()}/mcp`, String(callbackPort), '--allow-http', '--transport', 'http-only'], env, stderr: 'pipe' })
    let log = ''
    let walked = false
    const signedIn = new Promise<void>((done, fail) => {
      transport.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString()
        const authorization = /visiting:\s*(\S+)/.exec(log)?.[1]
        if (!authorization || walked) return
        walked = true
        // Back to mcp-remote's callback with the code, its state and the issuer (RFC 9207), as a browser would go.
        signInAt(new URL(authorization), 'erin', `http://localhost:${callbackPort}/oauth/callback`)
          .then(async (callback) => expect((await fetch(callback)).status).toBe(200))
          .then(done, fail)
      })
    })
    const client = new Client({ name: 'mcp-remote-test', version: '1.0.0' })
    try {
      await client.connect(transport)
      await signedIn
      expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ structuredContent: { user: 'erin' } })
    } catch (error) {
      console.error(`mcp-remote's log:\n${log}`)
      throw error
    } finally {
      await client.close()
      rmSync(configDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('grants what the user approved: a token without a tool\'s scope gets 403 INSUFFICIENT_SCOPE, and lists only what it may call', async () => {
    // The flow by hand, asking for tools:call alone (the SDK asks for every scope the challenge names).
    const redirect = 'http://127.0.0.1:1/callback'
    const client = (await (await fetch(`${url()}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }) })).json()) as { client_id: string }
    const verifier = 'a-verifier-of-forty-three-characters-or-more-0123456789'
    const challenge = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString('base64url')
    const query = { response_type: 'code', client_id: client.client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: 'tools:call', resource: `${url()}/mcp` }
    const code = await formWalk('grace')(new URL(`${url()}/authorize?${new URLSearchParams(query)}`), redirect)
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: client.client_id, code_verifier: verifier, resource: `${url()}/mcp` }
    const tokens = (await (await fetch(`${url()}/token`, { method: 'POST', body: new URLSearchParams(exchange) })).json()) as { access_token: string; scope: string }
    expect(tokens.scope).toBe('tools:call')
    const refused = await call('/tools/deploy', tokens.access_token, {})
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([403, `Bearer error="insufficient_scope", scope="tools:call tools:deploy", resource_metadata="${url()}/.well-known/oauth-protected-resource"`])
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('INSUFFICIENT_SCOPE')
    const listed = (await (await call('/tools', tokens.access_token)).json()) as { tools: { id: string }[] }
    expect(listed.tools.map(({ id }) => id)).toEqual(['whoami'])
    expect(await (await call('/tools/whoami', tokens.access_token, {})).json()).toMatchObject({ output: { user: 'grace' } })
  })

  it('answers its sign-in and endpoints only to loopback Hosts, as a locally served Worker does (DNS rebinding)', async () => {
    const base = new URL(url())
    const status = (path: string, host: string) =>
      new Promise<number>((done, fail) => {
        const outgoing = request({ host: base.hostname, port: base.port, method: 'GET', path, headers: { host } }, (incoming) => (incoming.resume(), done(incoming.statusCode!)))
        outgoing.on('error', fail).end()
      })
    expect(await status('/authorize?response_type=code&client_id=x', 'evil.example.com')).toBe(403)
    expect(await status('/.well-known/oauth-authorization-server', 'evil.example.com')).toBe(403)
    expect(await status('/.well-known/oauth-authorization-server', `localhost:${base.port}`)).toBe(200)
  })

  it('refuses a malformed sign-in: a bad request, and a user name the library could not take', async () => {
    const bad = await fetch(`${url()}/authorize?response_type=code&client_id=nobody`)
    expect(bad.status).toBe(400)
    expect(await bad.text()).not.toContain('<form')
    // A name with ':' (the library's separator) or markup is asked again, escaped; no code is issued.
    const provider = new WalkingOAuthClient(async (authorizationUrl, redirectUrl) => {
      const refused = await fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ user: 'a:<b>' }), redirect: 'manual' })
      expect([refused.status, refused.headers.get('location'), await refused.text()]).toEqual([400, null, expect.stringContaining('<form method="post">')])
      return formWalk('frank')(authorizationUrl, redirectUrl)
    })
    const refused = await new Client({ name: 'test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${url()}/mcp`), { authProvider: provider })).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(UnauthorizedError)
    expect(provider.code).toBeTruthy()
  })
})

/** The last fenced block of docs/auth.md whose first line names `name` (the built-in server's section is the page's last). */
const docsFile = (name: string) => {
  const page = readFileSync(resolve(import.meta.dirname, '../../docs/auth.md'), 'utf8')
  return [...page.matchAll(new RegExp(`\`\`\`ts\n(// ${name.replaceAll('.', '\\.')}\n[\\s\\S]*?)\n\`\`\``, 'g'))].at(-1)![1]!
}
const deployed = fixtureProject(
  'oauth-builtin-deployed',
  { 'tools/tools.ts': tools, 'toolroute.config.ts': docsFile('toolroute.config.ts'), 'auth/sign-in.ts': docsFile('auth/sign-in.ts') },
  { deploy: true, idempotencyBinding: true, oauthKv: true },
)
const app = servedFixture(deployed)

describe("oauth: { provider: 'builtin' } deployed, with docs/auth.md's own sign-in", () => {
  it("imports the config's signIn module, and serves no local sign-in", async () => {
    const entry = readFileSync(join(deployed.dir, '.toolroute/worker.ts'), 'utf8')
    expect(entry).toContain('import signIn from "../auth/sign-in.ts"')
    expect(entry).toContain('withBuiltinOAuth({ fetch: worker.fetch }, { config, signIn })')
    const page = await fetch(`${app.url()}/authorize?response_type=code&client_id=x`)
    expect([page.status, await page.text()]).toEqual([401, 'Sign in through Cloudflare Access first'])
  })

  it('signs the MCP SDK client in as the user Cloudflare Access names, and runs stay that user\'s', async () => {
    const accessWalk = (email: string) => async (authorizationUrl: URL, redirectUrl: string) => {
      const answer = await fetch(authorizationUrl, { headers: { 'cf-access-authenticated-user-email': email }, redirect: 'manual' })
      const location = new URL(answer.headers.get('location') ?? '', authorizationUrl)
      expect([answer.status, location.href.startsWith(redirectUrl)]).toEqual([302, true])
      return location.searchParams.get('code')!
    }
    const signInAs = async (email: string) => {
      const provider = new WalkingOAuthClient(accessWalk(email))
      const mcp = new URL(`${app.url()}/mcp`)
      const refused = await new Client({ name: 'test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider })).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(UnauthorizedError)
      await new StreamableHTTPClientTransport(mcp, { authProvider: provider }).finishAuth(provider.code!)
      const client = new Client({ name: 'test', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }))
      return { client, token: provider.tokens()!.access_token }
    }
    const carol = await signInAs('carol@example.com')
    expect(await carol.client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ structuredContent: { user: 'carol@example.com' } })
    const dave = await signInAs('dave@example.com')
    const started = (await (await app.post('/tools/deploy', {}, { authorization: `Bearer ${carol.token}` })).json()) as { runId: string }
    const read = (token: string) => fetch(`${app.url()}/runs/${started.runId}`, { headers: { authorization: `Bearer ${token}` } })
    expect([(await read(carol.token)).status, (await read(dave.token)).status]).toEqual([200, 404])
    await carol.client.close()
    await dave.client.close()
  })
})
