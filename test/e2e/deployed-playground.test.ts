// The playground in a deploy build (SPEC §10, §11): `toolroute build --deploy`, what `toolroute deploy`
// builds, bundled by `wrangler deploy --dry-run` and served on workerd at 127.0.0.1, a local host,
// as `wrangler dev` of a deploy build would be. With `playground` unset the Worker carries no page
// and says so on GET /; with `playground: true` it serves the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { greet } from '../../bench/bundle/greet-sources.mjs'
import type { DirectWorkerd } from './direct-workerd.ts'
import { fixtureProject } from './fixture-project.ts'

const config = (options: string) => `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ mcp: false${options} })\n`
const unset = fixtureProject('deploy-no-page', { 'tools/greet.ts': greet.zod, 'toolroute.config.ts': config('') }, { deploy: true, idempotencyBinding: true })
const on = fixtureProject('deploy-page', { 'tools/greet.ts': greet.zod, 'toolroute.config.ts': config(', playground: true') }, { deploy: true, idempotencyBinding: true })
let servers: DirectWorkerd[] = []

beforeAll(async () => {
  servers = [await unset.start(), await on.start()]
}, 180_000)
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  unset.remove()
  on.remove()
})

describe('a deploy build opened on a local host', () => {
  it('without playground: true, GET / answers 404 TOOL_NOT_FOUND saying the build has no page; the tools answer', async () => {
    const [server] = servers
    expect(new URL(server!.url).hostname).toBe('127.0.0.1')
    const response = await fetch(`${server!.url}/`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: {
        code: 'TOOL_NOT_FOUND',
        message:
          'No route for GET /: this build has no playground page (toolroute deploy leaves it out unless toolroute.config.ts sets playground: true; toolroute dev serves it)',
      },
    })
    const called = await fetch(`${server!.url}/tools/greet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada' }) })
    expect(await called.json()).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' } })
  })

  it('with playground: true, GET / serves the page', async () => {
    const response = await fetch(`${servers[1]!.url}/`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<title>toolroute playground</title>')
  })
})
