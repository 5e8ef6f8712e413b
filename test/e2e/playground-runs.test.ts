// The playground's runs (SPEC §10, §16) in a real browser: Chromium on a toolroute app served by Node
// (`toolroute/server` over node:http) whose config names one principal for every request, so runs an
// agent starts over MCP and runs this page starts are the same caller's. The page lists them from
// GET /runs, filters by status and tool, approves, declines and resumes from the list, and draws a
// run's timeline (start, waits, steps, attempts, observe spans with durations) beside its events.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/tools.ts'
import { createToolApp } from '../../src/server.ts'
import { launchChromium, screenshotDir } from './launch-chromium.ts'
import { serveApp } from './serve-app.ts'

const approveSpend = createTool({
  id: 'approve-spend',
  description: 'Spend money, once a person approves',
  inputSchema: z.object({ amount: z.number() }),
  requireApproval: true,
  execute: async ({ amount }, { observe }) => {
    const charged = await observe.span('charge', async () => observe.span('ledger', () => amount * 100))
    return { cents: charged }
  },
})
const pickSeat = createTool({
  id: 'pick-seat',
  description: 'Ask a person which seat',
  inputSchema: z.object({ flight: z.string() }),
  suspendSchema: z.object({ question: z.string() }),
  resumeSchema: z.object({ seat: z.string() }),
  execute: async ({ flight }, { resumeData, suspend }) => (resumeData ? { flight, seat: resumeData.seat } : suspend({ question: `Which seat on ${flight}?` })),
})
const nightlyReport = createTool({
  id: 'nightly-report',
  description: 'A report, in the background',
  inputSchema: z.object({ day: z.string() }),
  background: { enabled: true, maxRetries: 0 },
  execute: async ({ day }, { observe }) => observe.span('aggregate', () => ({ day, rows: 3 })),
})

let browser: Promise<Browser>
let server: Awaited<ReturnType<typeof serveApp>>
beforeAll(async () => {
  // One principal for every request: the page's and MCP's runs are one caller's.
  server = await serveApp(createToolApp({ tools: [approveSpend, pickSeat, nightlyReport], principal: () => 'user:tester' }).fetch)
  browser = launchChromium()
  browser.catch(() => {})
})
afterAll(async () => {
  await browser?.then((launched) => launched.close(), () => {})
  await server?.close()
})

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await (await (await browser).newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })).newPage()
  page.setDefaultTimeout(15_000)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${server.url}/`)
  await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
  await settled(page)
  return { page, errors }
}
const serverRuns = (page: Page) => page.getByRole('list', { name: 'Server runs' })
const settled = (page: Page) => page.locator('#server-runs[aria-busy="false"]').waitFor()
const itemOf = (page: Page, runId: string) => serverRuns(page).locator(`li[data-run="${runId}"]`)
const listedIds = async (page: Page) => serverRuns(page).locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-run')))

/** Starts a run as an agent would, over HTTP (JSON). */
async function start(toolId: string, input: unknown): Promise<string> {
  const response = await fetch(`${server.url}/tools/${toolId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })
  expect(response.status).toBe(202)
  return ((await response.json()) as { runId: string }).runId
}

/** Starts a background run over MCP (2025-11-25, stateless, a task-augmented tools/call). */
async function startOverMcp(): Promise<string> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nightly-report', arguments: { day: '2026-12-01' }, task: { ttl: 60_000 } } }),
  })
  const body = (await response.json()) as { result: { task: { taskId: string } } }
  return body.result.task.taskId
}

describe("the playground's runs", () => {
  it('lists the caller’s runs from the server, including one an agent started over MCP, filtered by status and tool', async () => {
    const waiting = await start('approve-spend', { amount: 1 })
    const suspended = await start('pick-seat', { flight: 'LIS-OPO' })
    const overMcp = await startOverMcp()
    const { page, errors } = await open()
    const ids = await listedIds(page)
    expect(ids.slice(0, 3)).toEqual([overMcp, suspended, waiting])
    expect(await itemOf(page, overMcp).locator('button').first().innerText()).toMatch(/^nightly-report · (running|completed)$/)
    await page.getByLabel('status', { exact: true }).selectOption({ label: 'waiting' })
    await settled(page)
    expect(await listedIds(page)).toEqual(expect.arrayContaining([suspended, waiting]))
    expect(await serverRuns(page).locator('li[data-status="running"], li[data-status="completed"]').count()).toBe(0)
    await page.getByLabel('tool', { exact: true }).selectOption('pick-seat')
    await settled(page)
    expect(await serverRuns(page).locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-status')))).toEqual(expect.arrayContaining(['suspended']))
    expect((await listedIds(page)).includes(waiting)).toBe(false)
    await page.screenshot({ path: `${screenshotDir}/runs-01-filtered.png`, fullPage: true })
    expect(errors).toEqual([])
  })

  it('approves a waiting run from the list; its events show beside a timeline of its phases and spans with durations', async () => {
    const runId = await start('approve-spend', { amount: 2 })
    const { page, errors } = await open()
    await itemOf(page, runId).getByRole('button', { name: 'Approve', exact: true }).click()
    await page.locator('[role="log"][aria-busy="false"]').waitFor()
    await page.getByRole('log').locator('li[data-type="tool-output-available"]').waitFor()
    const timeline = page.getByRole('list', { name: 'Timeline' })
    await timeline.locator('li[data-kind="end"]').waitFor()
    const phases = await timeline.locator('li').evaluateAll((items) => items.map((item) => [item.getAttribute('data-kind'), item.querySelector('.label')?.textContent]))
    expect(phases).toEqual([
      ['start', 'start'],
      ['wait', 'waits for approval'],
      ['step', 'step 2'],
      ['span', 'charge'],
      ['span', 'ledger'],
      ['end', 'completed'],
    ])
    // The start, the wait and the approved step carry theirs, from the run's timed history (GET /runs/:id).
    const ms = expect.stringMatching(/^\d+(\.\d\d)? ms$/)
    expect(await timeline.locator('li[data-kind="start"] .duration, li[data-kind="wait"] .duration, li[data-kind="step"] .duration').allInnerTexts()).toEqual([ms, ms, ms])
    // Spans carry their durations, nested by parent.
    expect(await timeline.locator('li[data-kind="span"] .duration').allInnerTexts()).toEqual([expect.stringMatching(/^\d+(\.\d\d)? ms$/), expect.stringMatching(/^\d+(\.\d\d)? ms$/)])
    const indents = await timeline.locator('li[data-kind="span"]').evaluateAll((items) => items.map((item) => (item as unknown as { style: { marginLeft: string } }).style.marginLeft))
    expect(indents).toEqual(['1.2rem', '2.4rem'])
    await expect.poll(async () => itemOf(page, runId).getAttribute('data-status')).toBe('completed')
    await page.screenshot({ path: `${screenshotDir}/runs-02-timeline.png`, fullPage: true })
    expect(errors).toEqual([])
  })

  it('declines a waiting run and resumes a suspended one from the list', async () => {
    const declined = await start('approve-spend', { amount: 3 })
    const suspended = await start('pick-seat', { flight: 'OPO-FNC' })
    const { page, errors } = await open()
    await itemOf(page, declined).getByRole('button', { name: 'Decline', exact: true }).click()
    await expect.poll(async () => itemOf(page, declined).getAttribute('data-status')).toBe('declined')
    expect((await (await fetch(`${server.url}/runs/${declined}`)).json()) as object).toMatchObject({ status: 'declined' })
    await itemOf(page, suspended).getByRole('button', { name: 'Resume', exact: true }).click()
    await page.getByLabel('seat', { exact: true }).fill('3C')
    await page.locator('#waiting').getByRole('button', { name: 'Resume', exact: true }).click()
    await page.getByRole('log').locator('li[data-type="tool-output-available"]').waitFor()
    await expect.poll(async () => itemOf(page, suspended).getAttribute('data-status')).toBe('completed')
    expect((await (await fetch(`${server.url}/runs/${suspended}`)).json()) as object).toMatchObject({ status: 'completed', output: { seat: '3C' } })
    expect(errors).toEqual([])
  })
})
