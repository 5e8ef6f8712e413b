import { bearerAuth } from 'hono/bearer-auth'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../runtime/create-tool.ts'
import { playgroundForms } from '../playground/playground-forms.ts'
import { playgroundScript } from '../playground/playground-script.ts'
import { playgroundViews } from '../playground/playground-views.ts'
import { playgroundRuns } from '../playground/playground-runs.ts'
import { playgroundSession } from '../playground/playground-session.ts'
import { createToolApp } from '../server.ts'
import { createToolApp as createAppWithoutPage } from './create-tool-app.ts'
import { servesPlayground } from './mount-playground.ts'

const tools = [createTool({ id: 'echo', description: 'Echo', inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ text }) })]
const notFound = { error: { code: 'TOOL_NOT_FOUND', message: 'No route for GET /' } }

describe('GET / (the playground)', () => {
  it('serves the page to a local host by default, and answers 404 TOOL_NOT_FOUND elsewhere', async () => {
    const app = createToolApp({ tools })
    for (const host of ['localhost:8787', '127.0.0.1:8787', '[::1]:8787']) {
      const response = await app.request(`http://${host}/`)
      expect(response.status, host).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8')
      expect(await response.text()).toContain('<div id="log" role="log" aria-label="Events"')
    }
    for (const host of ['tools.example.com', 'localhost.example.com', '10.0.0.1']) {
      const response = await app.request(`http://${host}/`)
      expect(response.status, host).toBe(404)
      expect(await response.json()).toEqual(notFound)
    }
  })

  it('follows the playground option over the host', async () => {
    const on = await createToolApp({ tools, playground: true }).request('https://tools.example.com/')
    expect(on.status).toBe(200)
    expect(await on.text()).toContain('<title>toolroute playground</title>')
    const off = await createToolApp({ tools, playground: false }).request('http://localhost:8787/')
    expect(off.status).toBe(404)
    expect(await off.json()).toEqual(notFound)
    expect(servesPlayground(undefined, 'http://127.0.0.1/')).toBe(true)
    expect(servesPlayground(false, 'http://127.0.0.1/')).toBe(false)
    expect(servesPlayground(true, 'https://example.com/')).toBe(true)
  })

  it('without a page (a deploy build), answers 404 TOOL_NOT_FOUND, saying why only where the page would be served', async () => {
    const notBuilt = {
      error: {
        code: 'TOOL_NOT_FOUND',
        message:
          'No route for GET /: this build has no playground page (toolroute deploy leaves it out unless toolroute.config.ts sets playground: true; toolroute dev serves it)',
      },
    }
    const app = createAppWithoutPage({ tools })
    for (const url of ['http://localhost:8787/', 'http://127.0.0.1/', 'http://[::1]:8787/']) {
      const response = await app.request(url)
      expect(response.status, url).toBe(404)
      expect(await response.json()).toEqual(notBuilt)
    }
    const remote = await app.request('https://tools.example.com/')
    expect(remote.status).toBe(404)
    expect(await remote.json()).toEqual(notFound)
    const on = await createAppWithoutPage({ tools, playground: true }).request('https://tools.example.com/')
    expect(on.status).toBe(404)
    expect(await on.json()).toEqual(notBuilt)
    // playground: false says nothing of a page, as before; and the answer is behind auth like the page.
    expect(await (await createAppWithoutPage({ tools, playground: false }).request('http://localhost/')).json()).toEqual(notFound)
    expect((await createAppWithoutPage({ tools, auth: bearerAuth({ token: 'secret' }) }).request('http://localhost/')).status).toBe(401)
  })

  it('is behind the same auth as the routes; a browser refused it gets a form for the token (still 401)', async () => {
    const app = createToolApp({ tools, auth: bearerAuth({ token: 'secret' }) })
    const refused = await app.request('http://localhost/')
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
    const prompt = await app.request('http://localhost/', { headers: { accept: 'text/html,application/xhtml+xml' } })
    expect(prompt.status).toBe(401)
    expect(prompt.headers.get('www-authenticate')).toBe((refused.headers.get('www-authenticate')))
    expect(prompt.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const form = await prompt.text()
    expect(form).toContain('<label for="token">Token</label>')
    expect(form).not.toContain('data-base') // the page itself is not in it
    const allowed = await app.request('http://localhost/', { headers: { authorization: 'Bearer secret' } })
    expect(allowed.status).toBe(200)
    expect(await allowed.text()).toContain('<body data-base="" data-auth>')
    expect(await (await createToolApp({ tools }).request('http://localhost/')).text()).toContain('<body data-base="">')
    // Off this host the page is not served: a browser refused there gets the 401 as is.
    expect((await app.request('https://tools.example.com/', { headers: { accept: 'text/html' } })).headers.get('content-type')).toContain('application/json')
  })

  it('lives under the base path and tells the page where the routes are', async () => {
    const app = createToolApp({ tools, basePath: '/v1' })
    const response = await app.request('http://localhost/v1')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<body data-base="/v1">')
    expect((await app.request('http://localhost/')).status).toBe(404)
  })

  it('only lets the page talk to its own origin, and not be framed', async () => {
    const response = await createToolApp({ tools }).request('http://localhost/')
    const policy = response.headers.get('content-security-policy')
    expect(policy).toContain("connect-src 'self'")
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('ships a script that cannot end its own script element early', () => {
    for (const part of [playgroundScript, playgroundForms, playgroundViews, playgroundRuns, playgroundSession]) expect(part.toString()).not.toMatch(/<\/script/i)
  })

  it('fits the app\'s one router (RegExpRouter) under a base path: the app is built and serves the page', async () => {
    const app = createToolApp({ tools, basePath: '/api', playground: true })
    expect((await app.request('http://localhost/api')).status).toBe(200)
  })
})
