// The playground of an app with `auth` (SPEC §10, issue #49: "with `auth` on, the playground has no way
// to send a token"), in a real browser: Chromium on a toolroute app served by Node whose bearer auth
// takes two tokens (two callers). The page is behind auth like its routes: a browser opening it without a
// token gets the 401 as a form asking for one (a navigation cannot send a bearer token); with the token,
// the page opens, and every request it makes carries `Authorization: Bearer <token>` (the tools, a call, approve, GET /runs, a replay), and
// the runs listed are that caller's only. The token stays in the tab's sessionStorage, never in a URL.
import { bearerAuth } from 'hono/bearer-auth'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/tools.ts'
import { createToolApp } from '../../src/server.ts'
import { launchChromium, screenshotDir } from './launch-chromium.ts'
import { serveApp } from './serve-app.ts'

const greet = createTool({
  id: 'greet',
  description: 'Say hello',
  inputSchema: z.object({ name: z.string() }),
  inputExamples: [{ input: { name: 'Ada' } }],
  execute: async ({ name }) => ({ message: `Hello, ${name}!` }),
})
const approveSpend = createTool({
  id: 'approve-spend',
  description: 'Spend money, once a person approves',
  inputSchema: z.object({ amount: z.number() }),
  inputExamples: [{ input: { amount: 3 } }],
  requireApproval: true,
  execute: async ({ amount }) => ({ cents: amount * 100 }),
})

const [mine, theirs] = ['token-of-ada-0123456789', 'token-of-bob-9876543210']
let browser: Promise<Browser>
let server: Awaited<ReturnType<typeof serveApp>>
beforeAll(async () => {
  server = await serveApp(createToolApp({ tools: [greet, approveSpend], auth: bearerAuth({ token: [mine, theirs] }) }).fetch)
  browser = launchChromium()
  browser.catch(() => {})
})
afterAll(async () => {
  await browser?.then((launched) => launched.close(), () => {})
  await server?.close()
})

const settled = async (page: Page) => {
  await page.locator('[role="log"][aria-busy="false"]').waitFor({ state: 'attached' })
  await page.locator('#server-runs[aria-busy="false"]').waitFor({ state: 'attached' })
}
const listedIds = (page: Page) => page.getByRole('list', { name: 'Server runs' }).locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-run')))

/** Starts a run as an agent with `token` would, over HTTP. */
async function start(token: string): Promise<string> {
  const response = await fetch(`${server.url}/tools/approve-spend`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"amount":1}' })
  expect(response.status).toBe(202)
  return ((await response.json()) as { runId: string }).runId
}

describe('the playground of an app with auth', () => {
  it('asks for a token (401) and refuses a wrong one; with the right one the page opens, every request sends it, calls succeed and GET /runs lists the caller’s runs', async () => {
    const [agentRun, otherRun] = [await start(mine), await start(theirs)]
    const context = await (await browser).newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    const errors: string[] = []
    const logged: string[] = []
    const requests: Request[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => logged.push(message.text()))
    page.on('request', (request) => void requests.push(request))

    // No token: GET / is behind auth like every route (SPEC §10); the browser's 401 is a form for the token.
    const refused = await page.goto(`${server.url}/`)
    expect(refused?.status()).toBe(401)
    expect(await page.getByRole('button', { name: 'Run', exact: true }).count()).toBe(0)
    await page.getByLabel('Token', { exact: true }).fill(theirs.replace('bob', 'eve'))
    await page.getByRole('button', { name: 'Open', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('This token was refused.')
    await page.screenshot({ path: `${screenshotDir}/auth-01-no-token.png`, fullPage: true })

    // With the token the page opens, its own Token field holding it.
    await page.getByLabel('Token', { exact: true }).fill(mine)
    await page.getByRole('button', { name: 'Open', exact: true }).click()
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
    await settled(page)
    expect(await page.getByRole('alert').innerText()).toBe('')
    // The runs of this caller only: the one an agent with the same token started, not another caller's.
    expect(await listedIds(page)).toEqual([agentRun])

    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await settled(page)
    expect(JSON.parse(await page.getByRole('log').locator('li[data-type="tool-output-available"] pre').innerText())).toEqual({ output: { message: 'Hello, Ada!' } })
    expect(await page.getByRole('status').innerText()).toMatch(/^greet: completed/)

    // An approval from the page, with the token: the run completes.
    await page.locator('button[data-tool="approve-spend"]').click()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await settled(page)
    await page.locator('#waiting').getByRole('button', { name: 'Approve', exact: true }).click()
    await page.getByRole('log').locator('li[data-type="tool-output-available"]').waitFor()
    await settled(page)
    // The approved run joins the list (greet's call, which never waited, is not stored: SPEC §4).
    const ids = await listedIds(page)
    expect(ids).toHaveLength(2)
    expect(ids[1]).toBe(agentRun)

    // A reload keeps the token for the tab (sessionStorage): the tools load, a past run replays with it.
    await page.reload()
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
    await page.getByRole('list', { name: 'Past runs' }).locator('button').first().click()
    await settled(page)
    expect(await page.getByRole('status').innerText()).toMatch(/^approve-spend: completed \(replayed \d+ events\)$/)
    await page.screenshot({ path: `${screenshotDir}/auth-02-token.png`, fullPage: true })

    // Every request to the app after the token was typed carried it; none put it in a URL; nothing logged it.
    const typedAt = requests.findIndex((request) => request.headers().authorization !== undefined)
    const sent = requests.slice(typedAt).filter((request) => request.url().startsWith(server.url) && new URL(request.url()).pathname !== '/')
    const paths = sent.map((request) => `${request.method()} ${new URL(request.url()).pathname}`)
    expect(paths).toEqual(expect.arrayContaining(['GET /tools', 'GET /runs', 'POST /tools/greet', 'POST /tools/approve-spend']))
    for (const route of [/^POST \/runs\/[^/]+\/approve$/, /^GET \/runs\/[^/]+\/events$/, /^GET \/runs\/[^/]+$/]) expect(paths.some((path) => route.test(path)), String(route)).toBe(true)
    for (const request of sent) expect(request.headers().authorization, request.url()).toBe(`Bearer ${mine}`)
    expect(requests.some((request) => request.url().includes(mine))).toBe(false)
    expect(logged.some((line) => line.includes(mine))).toBe(false)
    expect(await page.evaluate(() => sessionStorage.getItem('toolroute.playground.token'))).toBe(JSON.stringify(mine))
    expect(errors).toEqual([])
    await context.close()
  })

  it('shows no token field when the app has no auth', async () => {
    const open = await serveApp(createToolApp({ tools: [greet] }).fetch)
    const context = await (await browser).newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${open.url}/`)
      await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
      expect(await page.getByLabel('Token', { exact: true }).count()).toBe(0)
    } finally {
      await context.close()
      await open.close()
    }
  })
})
