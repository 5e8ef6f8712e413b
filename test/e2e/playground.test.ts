// The playground (SPEC §10) in a real browser: Debian's Chromium driven by playwright-core against
// the example Worker under `wrangler dev` (a local host, so the page is on by default). Each test
// does what a user would: picks a tool, fills the form or the raw JSON, presses Run, answers a
// waiting run, reopens a past one. Screenshots of each step go to test-results/playground/.
// One file over ~300 lines on purpose: the tests share one wrangler dev and one browser, whose
// start-up is most of the file's time.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, screenshotDir } from './launch-chromium.ts'

const baseUrl = inject('baseUrl')

// Launched once; a launch that fails (no Chromium) fails every test with its message, not skips them.
let browser: Promise<Browser>
let context: BrowserContext | undefined
let pageErrors: string[] = []

beforeAll(() => {
  browser = launchChromium()
  browser.catch(() => {})
})
afterAll(async () => {
  await browser?.then((launched) => launched.close(), () => {})
})
afterEach(async () => {
  await context?.close()
  context = undefined
})

/** A fresh browser context on the playground, with the tool of `hash` selected (the first tool otherwise). */
async function openPlayground(hash = '', viewport = { width: 1280, height: 860 }): Promise<Page> {
  context = await (await browser).newContext({ viewport, deviceScaleFactor: 1 })
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  pageErrors = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  const response = await page.goto(`${baseUrl}/${hash}`)
  expect(response?.status()).toBe(200)
  await page.getByRole('button', { name: 'Run' }).waitFor()
  return page
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true })
const log = (page: Page) => page.getByRole('log', { name: 'Events' })
const eventOf = (page: Page, type: string) => log(page).locator(`li[data-type="${type}"]`)
/** The JSON an event's item shows (the event without its type and tool call id). */
const payloadOf = async (page: Page, type: string) => JSON.parse(await eventOf(page, type).last().locator('pre').innerText())
const pickTool = (page: Page, id: string) => page.getByRole('button', { name: id, exact: true }).click()
const status = (page: Page) => page.getByRole('status')
/** Presses Run and waits until the log settles (it is `aria-busy` while a request feeds it) with an event of `type`. */
async function runAndWait(page: Page, type = 'finish') {
  await page.getByRole('button', { name: 'Run' }).click()
  await page.locator('[role="log"][aria-busy="false"]').waitFor()
  await eventOf(page, type).last().waitFor()
}

describe('the playground page', () => {
  it('lists every tool with its description, annotations and badges', async () => {
    const page = await openPlayground()
    const tools = page.getByRole('list', { name: 'Tools' }).getByRole('listitem')
    const descriptors = ((await (await fetch(`${baseUrl}/tools`)).json()) as { tools: { id: string }[] }).tools
    expect(await tools.count()).toBe(descriptors.length)
    const item = (id: string) => tools.filter({ has: page.getByRole('button', { name: id, exact: true }) })
    expect(await item('delete-file').innerText()).toMatch(/Delete file: Delete a file from the workspace/)
    expect(await item('delete-file').locator('.badge').allInnerTexts()).toEqual(['approval', 'destructive', 'idempotent'])
    expect(await item('generate-report').locator('.badge').allInnerTexts()).toEqual(['background'])
    expect(await item('book-flight').locator('.badge').allInnerTexts()).toEqual(['suspends'])
    expect(await item('weather-tool').locator('.badge').count()).toBe(0)
    // The button's description is its accessible description, for screen readers.
    expect(await page.getByRole('button', { name: 'delete-file', exact: true }).getAttribute('aria-describedby')).toBe('tool-about-delete-file')
    await shot(page, '01-tools')
    // Keyboard only: a tool is a button, Enter selects it.
    await page.getByRole('button', { name: 'book-flight', exact: true }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'book-flight', exact: true }).waitFor()
    expect(await page.getByRole('button', { name: 'book-flight', exact: true }).getAttribute('aria-current')).toBe('true')
    expect(pageErrors).toEqual([])
  })

  it('calls a tool through the form: labelled fields, then Run streams the events into the log', async () => {
    const page = await openPlayground('#weather-tool')
    await pickTool(page, 'weather-tool')
    // inputExamples fill the form; the field's label is its name, its description a hint.
    const location = page.getByLabel('location', { exact: true })
    expect(await location.inputValue()).toBe('Lisbon')
    await location.fill('Reykjavik')
    expect(JSON.parse(await page.getByLabel('Input (JSON)').inputValue())).toEqual({ location: 'Reykjavik' })
    await shot(page, '02-form-filled')
    await runAndWait(page)
    const items = log(page).getByRole('listitem')
    expect(await items.locator('.type').allInnerTexts()).toEqual(['start', 'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-output-available', 'finish'])
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { location: 'Reykjavik', temperatureCelsius: 21, conditions: 'sunny' } })
    expect(await status(page).innerText()).toBe('weather-tool: completed')
    await shot(page, '03-form-run')
    expect(pageErrors).toEqual([])
  })

  it('shows events as they arrive, before the run ends', async () => {
    const page = await openPlayground('#generate-report')
    await page.getByLabel('month', { exact: true }).fill('2026-11')
    await page.getByLabel('delayMs', { exact: true }).fill('2500')
    await page.getByRole('button', { name: 'Run' }).click()
    await log(page).getByText('info: report started').waitFor()
    expect(await eventOf(page, 'tool-output-available').count()).toBe(0)
    await shot(page, '04-live-log')
    await eventOf(page, 'tool-output-available').waitFor()
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { month: '2026-11', rows: 31 } })
    expect(pageErrors).toEqual([])
  })

  it('shows the logs and spans of a tool as lines of their own', async () => {
    const page = await openPlayground('#audited-search')
    await page.getByLabel('query', { exact: true }).fill('durable')
    await page.getByLabel('limit', { exact: true }).fill('2')
    await runAndWait(page)
    expect(await eventOf(page, 'data-tool-log').locator('pre').innerText()).toBe('info: searching {"query":"durable"}')
    expect(await eventOf(page, 'data-tool-span').locator('pre').allInnerTexts()).toEqual(['rank start', expect.stringMatching(/^rank end \d+ ms ok$/)])
    expect((await payloadOf(page, 'tool-output-available')).output.results).toHaveLength(2)
    await shot(page, '04b-logs-and-spans')
    expect(pageErrors).toEqual([])
  })

  it('calls a tool through the raw JSON editor, and the form follows', async () => {
    const page = await openPlayground('#weather-tool')
    await page.getByLabel('Input (JSON)').fill('{ "location": "Porto" }')
    expect(await page.getByLabel('location', { exact: true }).inputValue()).toBe('Porto')
    await runAndWait(page)
    expect(await payloadOf(page, 'tool-output-available')).toMatchObject({ output: { location: 'Porto' } })
    await shot(page, '05-raw-json-run')
    expect(pageErrors).toEqual([])
  })

  it('shows an error with its code and issues, and starts no run', async () => {
    const page = await openPlayground('#weather-tool')
    await runAndWait(page)
    const runs = page.getByRole('list', { name: 'Past runs' }).getByRole('listitem')
    expect(await runs.count()).toBe(1)
    await page.getByLabel('Input (JSON)').fill('{ "location": 1 }')
    await page.getByRole('button', { name: 'Run' }).click()
    const alert = page.getByRole('alert')
    await alert.getByText('INPUT_VALIDATION_FAILED').waitFor()
    expect(await alert.innerText()).toMatch(/location: .*expected string/)
    await shot(page, '06-input-error')
    await page.getByLabel('Input (JSON)').fill('{ "location": ')
    await page.getByRole('button', { name: 'Run' }).click()
    await alert.getByText('INVALID_JSON').waitFor()
    expect(await runs.count()).toBe(1)
    // The form is keyboard-usable: Enter in a field submits it, like pressing Run.
    await page.getByLabel('location', { exact: true }).fill('Oslo')
    await page.getByLabel('location', { exact: true }).press('Enter')
    await expect.poll(() => runs.count()).toBe(2)
    await eventOf(page, 'finish').waitFor()
    expect(await alert.innerText()).toBe('')
    expect(pageErrors).toEqual([])
  })

  it('display hides what the transform hides; raw and transcript show their own views', async () => {
    const page = await openPlayground('#lookup-customer')
    await page.getByLabel('email', { exact: true }).fill('ada@example.com')
    // The request context editor starts from the tool's requestContextSchema.
    expect(JSON.parse(await page.getByLabel('Request context (JSON)').inputValue())).toEqual({ tenantId: '' })
    await page.getByLabel('Request context (JSON)').fill('')
    await page.getByRole('button', { name: 'Run' }).click()
    await page.getByRole('alert').getByText('REQUEST_CONTEXT_VALIDATION_FAILED').waitFor()
    await page.getByLabel('Request context (JSON)').fill('{\n  "tenantId": ')
    await page.getByRole('button', { name: 'Run' }).click()
    await page.getByRole('alert').getByText('x-request-context is not valid JSON').waitFor()
    expect(await page.getByRole('alert').locator('.code').innerText()).toBe('REQUEST_CONTEXT_VALIDATION_FAILED')
    await page.getByLabel('Request context (JSON)').fill('{ "tenantId": "acme" }')

    await runAndWait(page)
    const display = await log(page).innerText()
    expect(display).toContain('a***@example.com')
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { name: 'Ada Lovelace', plan: 'pro' } })
    expect(display).not.toContain('ada@example.com')
    expect(display).not.toContain('internalNotes')
    expect(display).not.toContain('VIP')
    await shot(page, '07-display-view')

    await page.getByLabel('raw', { exact: true }).check()
    await runAndWait(page)
    const raw = await log(page).innerText()
    expect(raw).toContain('ada@example.com')
    expect(raw).toContain('VIP, refund approved')
    expect(await eventOf(page, 'data-tool-model-output').count()).toBe(1)
    await shot(page, '08-raw-view')

    await page.getByLabel('transcript', { exact: true }).check()
    await runAndWait(page)
    const transcript = await log(page).innerText()
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { id: 'cus_acme_42', plan: 'pro' } })
    expect(transcript).not.toContain('internalNotes')
    expect(transcript).not.toContain('ada@example.com')
    expect(pageErrors).toEqual([])
  })

  it('approves a run waiting for approval: the tool then executes', async () => {
    const page = await openPlayground('#delete-file')
    await page.getByLabel('path', { exact: true }).fill('notes/a.txt')
    await runAndWait(page, 'tool-approval-request')
    await page.getByRole('button', { name: 'Approve' }).waitFor()
    expect(await status(page).innerText()).toBe('delete-file: approval-required')
    await shot(page, '09-approval-required')
    await page.getByRole('button', { name: 'Approve' }).click()
    await eventOf(page, 'tool-output-available').waitFor()
    // `tool-approval-response`, sent as its data part `data-tool-approval-response` to AI SDK 6 readers (the default).
    const answer = log(page).locator('li[data-type="tool-approval-response"], li[data-type="data-tool-approval-response"]')
    expect(await answer.count()).toBe(1)
    const { approved, data } = JSON.parse(await answer.locator('pre').innerText())
    expect(approved ?? data.approved).toBe(true)
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { deleted: 'notes/a.txt' } })
    await expect.poll(() => status(page).innerText()).toBe('delete-file: completed')
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0)
    await shot(page, '10-approved')
    expect(pageErrors).toEqual([])
  })

  it('declines a run with a reason: the tool never executes', async () => {
    const page = await openPlayground('#delete-file')
    await page.getByLabel('path', { exact: true }).fill('notes/b.txt')
    await runAndWait(page, 'tool-approval-request')
    const runId = (await page.getByRole('heading', { name: /^Run / }).innerText()).slice(4)
    await page.getByLabel('reason', { exact: true }).fill('not this one')
    await page.getByRole('button', { name: 'Decline' }).click()
    await eventOf(page, 'tool-output-denied').waitFor()
    expect(await eventOf(page, 'tool-output-available').count()).toBe(0)
    await expect.poll(() => status(page).innerText()).toBe('delete-file: declined')
    expect(await page.getByRole('button', { name: 'Decline', exact: true }).count()).toBe(0)
    await shot(page, '11-declined')
    const run = (await (await fetch(`${baseUrl}/runs/${runId}`)).json()) as { status: string; output?: unknown }
    expect(run).toMatchObject({ status: 'declined' })
    expect(run.output).toBeUndefined()
    expect(pageErrors).toEqual([])
  })

  it('resumes a suspended run from a form drawn from its resumeSchema; a bad answer leaves it suspended', async () => {
    const page = await openPlayground('#book-flight')
    await page.getByLabel('from', { exact: true }).fill('LIS')
    await page.getByLabel('to', { exact: true }).fill('JFK')
    await runAndWait(page, 'data-tool-suspended')
    const waiting = page.locator('#waiting')
    expect(await waiting.innerText()).toContain('Which seat on LIS→JFK?')
    // The README's picture (docs/playground.png is a copy of it).
    await page.screenshot({ path: `${screenshotDir}/readme.png`, clip: { x: 0, y: 0, width: 1280, height: 760 } })
    const seat = waiting.getByLabel('seat', { exact: true })
    await seat.fill('nope')
    await page.getByRole('button', { name: 'Resume' }).click()
    await page.getByRole('alert').getByText('RESUME_VALIDATION_FAILED').waitFor()
    expect(await status(page).innerText()).toBe('book-flight: suspended')
    expect(await seat.inputValue()).toBe('nope') // the form keeps what was typed, to fix it
    await shot(page, '12-resume-refused')
    await seat.fill('12A')
    await page.getByRole('button', { name: 'Resume' }).click()
    await eventOf(page, 'tool-output-available').waitFor()
    expect(await payloadOf(page, 'data-tool-resumed')).toMatchObject({ data: { resumeData: { seat: '12A' } } })
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { confirmation: 'LIS-JFK-12A', seat: '12A' } })
    await expect.poll(() => status(page).innerText()).toBe('book-flight: completed')
    expect(await page.getByRole('alert').innerText()).toBe('')
    await shot(page, '13-resumed')
    expect(pageErrors).toEqual([])
  })

  it('reopens a past run of the session and replays its events from the events route', async () => {
    const page = await openPlayground('#book-flight')
    await page.getByLabel('from', { exact: true }).fill('OPO')
    await page.getByLabel('to', { exact: true }).fill('CDG')
    await runAndWait(page, 'data-tool-suspended')
    const runId = (await page.getByRole('heading', { name: /^Run / }).innerText()).slice(4)
    await page.locator('#waiting').getByLabel('seat', { exact: true }).fill('3C')
    await page.getByRole('button', { name: 'Resume' }).click()
    await eventOf(page, 'tool-output-available').waitFor()
    await pickTool(page, 'weather-tool')
    await runAndWait(page)

    // A reload keeps the session's runs (sessionStorage); reopening reads the server's log.
    await page.reload()
    await page.getByRole('button', { name: 'Run' }).waitFor()
    const pastRuns = page.getByRole('list', { name: 'Past runs' })
    expect(await pastRuns.getByRole('button').allInnerTexts()).toEqual(['weather-tool · completed', 'book-flight · completed'])
    const replay = page.waitForResponse((response) => response.url().startsWith(`${baseUrl}/runs/${runId}/events?view=display&after=0`))
    await pastRuns.getByRole('button', { name: 'book-flight · completed' }).click()
    expect((await replay).status()).toBe(200)
    await expect.poll(() => status(page).innerText()).toMatch(/^book-flight: completed \(replayed \d+ events\)$/)
    const types = await log(page).getByRole('listitem').locator('.type').allInnerTexts()
    expect(types).toEqual(expect.arrayContaining(['tool-input-available', 'data-tool-suspended', 'data-tool-resumed', 'tool-output-available']))
    expect(types.filter((type) => type === 'start')).toHaveLength(2) // the call's segment, then the resume's
    expect(await eventOf(page, 'tool-output-available').innerText()).toContain('OPO-CDG-3C')
    await shot(page, '14-replayed')

    // Another view of the same stored run: replayed again through that view.
    await page.getByLabel('raw', { exact: true }).check()
    await eventOf(page, 'data-tool-model-output').waitFor()

    // A stateless run is not stored by the server: the page shows the events it received.
    await pastRuns.getByRole('button', { name: 'weather-tool · completed' }).click()
    await expect.poll(() => status(page).innerText()).toBe('weather-tool: completed (not stored by the server: the events this page received)')
    await eventOf(page, 'tool-output-available').waitFor()
    expect(pageErrors).toEqual([])
  })

  it('answers a waiting run reopened after a reload', async () => {
    const page = await openPlayground('#delete-file')
    await page.getByLabel('path', { exact: true }).fill('notes/c.txt')
    await runAndWait(page, 'tool-approval-request')
    await pickTool(page, 'weather-tool')
    await page.reload()
    await page.getByRole('button', { name: 'Run' }).waitFor()
    await page.getByRole('list', { name: 'Past runs' }).getByRole('button', { name: 'delete-file · approval-required' }).click()
    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await eventOf(page, 'tool-output-available').waitFor()
    expect(await payloadOf(page, 'tool-output-available')).toEqual({ output: { deleted: 'notes/c.txt' } })
    await expect.poll(() => status(page).innerText()).toBe('delete-file: completed')
    expect(await page.getByRole('list', { name: 'Past runs' }).getByRole('button').allInnerTexts()).toEqual(['delete-file · completed'])
    expect(pageErrors).toEqual([])
  })

  it('is usable on a narrow screen', async () => {
    const page = await openPlayground('#book-flight', { width: 390, height: 844 })
    await page.getByLabel('from', { exact: true }).fill('LIS')
    await page.getByLabel('to', { exact: true }).fill('FNC')
    await runAndWait(page, 'data-tool-suspended')
    const overflow = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await page.getByRole('button', { name: 'Resume' }).isVisible()).toBe(true)
    await shot(page, '15-narrow')
    expect(pageErrors).toEqual([])
  })
})
