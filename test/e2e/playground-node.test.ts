// The playground's forms in a real browser, for every kind of field a JSON Schema describes
// (nested objects, arrays, enums, booleans, integers, numbers, optional fields): a toolroute app
// served by Node (`toolroute/server`'s createToolApp over node:http) on 127.0.0.1, with a tool
// whose input has them all; what the form sends is what the tool receives.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTool } from '../../src/tools.ts'
import { createToolApp } from '../../src/server.ts'
import { launchChromium, screenshotDir } from './launch-chromium.ts'
import { serveApp } from './serve-app.ts'

const planTrip = createTool({
  id: 'plan-trip',
  description: 'Plan a trip',
  inputSchema: z.object({
    traveller: z.object({ name: z.string().min(1), age: z.number().int().optional() }),
    cabin: z.enum(['economy', 'business']),
    flexible: z.boolean(),
    stops: z.array(z.string()),
    budget: z.number().optional(),
    notes: z.string().optional().describe('Anything the agent should know'),
  }),
  execute: async (input) => ({ received: input }),
})
const echoNumbers = createTool({
  id: 'sum',
  description: 'Add numbers',
  inputSchema: z.object({ values: z.array(z.number()).min(1) }),
  execute: async ({ values }) => ({ total: values.reduce((sum, value) => sum + value, 0) }),
})

// Launched once; a launch that fails (no Chromium) fails every test with its message, not skips them.
let browser: Promise<Browser>
let server: Awaited<ReturnType<typeof serveApp>>
beforeAll(async () => {
  server = await serveApp(createToolApp({ tools: [planTrip, echoNumbers] }).fetch)
  browser = launchChromium()
  browser.catch(() => {})
})
afterAll(async () => {
  await browser?.then((launched) => launched.close(), () => {})
  await server?.close()
})

async function open(hash: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await (await browser).newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })).newPage()
  page.setDefaultTimeout(15_000)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${server.url}/${hash}`)
  await page.getByRole('button', { name: 'Run' }).waitFor()
  return { page, errors }
}
const rawInput = async (page: Page) => JSON.parse(await page.getByLabel('Input (JSON)').inputValue())
async function run(page: Page): Promise<unknown> {
  await page.getByRole('button', { name: 'Run' }).click()
  await page.locator('[role="log"][aria-busy="false"]').waitFor()
  return JSON.parse(await page.getByRole('log').locator('li[data-type="tool-output-available"] pre').innerText())
}

describe('forms from the input JSON Schema', () => {
  it('draws a labelled control for nested objects, enums, booleans, numbers and arrays, and sends what was filled', async () => {
    const { page, errors } = await open('#plan-trip')
    // Nothing filled: required fields are present (empty), optional ones are left out.
    expect(await rawInput(page)).toEqual({ traveller: { name: '' }, cabin: 'economy', flexible: false, stops: [] })
    expect(await page.getByRole('group', { name: 'traveller' }).getByLabel('name', { exact: true }).count()).toBe(1)
    await page.getByLabel('name', { exact: true }).fill('Ada')
    await page.getByLabel('age', { exact: true }).fill('36')
    await page.getByLabel('cabin', { exact: true }).selectOption('business')
    await page.getByLabel('flexible', { exact: true }).check()
    await page.getByRole('button', { name: 'Add stops' }).click()
    await page.getByRole('button', { name: 'Add stops' }).click()
    await page.getByRole('button', { name: 'Add stops' }).click()
    await page.getByLabel('stops 1', { exact: true }).fill('Lisbon')
    await page.getByLabel('stops 2', { exact: true }).fill('Madeira')
    await page.getByLabel('stops 3', { exact: true }).fill('Azores')
    await page.getByRole('button', { name: 'Remove stops 2' }).click()
    // The rest are numbered again: Azores is now the second stop.
    expect(await page.getByLabel('stops 2', { exact: true }).inputValue()).toBe('Azores')
    expect(await page.getByLabel('stops 3', { exact: true }).count()).toBe(0)
    expect(await page.getByText('Anything the agent should know').isVisible()).toBe(true)
    // Every control has a label a screen reader announces.
    const unlabelled = await page.evaluate(() =>
      [...(globalThis as any).document.querySelectorAll('input, select, textarea')].filter((control: any) => control.labels.length === 0).map((control: any) => control.outerHTML),
    )
    expect(unlabelled).toEqual([])
    const expected = { traveller: { name: 'Ada', age: 36 }, cabin: 'business', flexible: true, stops: ['Lisbon', 'Azores'] }
    expect(await rawInput(page)).toEqual(expected)
    await page.screenshot({ path: `${screenshotDir}/20-nested-form.png`, fullPage: true })
    expect(await run(page)).toEqual({ output: { received: expected } })
    expect(errors).toEqual([])
  })

  it('fills the form from raw JSON, arrays and nested objects included', async () => {
    const { page, errors } = await open('#plan-trip')
    const input = { traveller: { name: 'Grace' }, cabin: 'business', flexible: true, stops: ['Oslo', 'Bergen'], budget: 1200.5, notes: 'window seat' }
    await page.getByLabel('Input (JSON)').fill(JSON.stringify(input))
    expect(await page.getByLabel('name', { exact: true }).inputValue()).toBe('Grace')
    expect(await page.getByLabel('cabin', { exact: true }).locator('option:checked').innerText()).toBe('business')
    expect(await page.getByLabel('flexible', { exact: true }).isChecked()).toBe(true)
    expect(await page.getByLabel('stops 2', { exact: true }).inputValue()).toBe('Bergen')
    expect(await page.getByLabel('budget', { exact: true }).inputValue()).toBe('1200.5')
    // An edit in the form then rewrites the raw JSON from the form.
    await page.getByLabel('notes', { exact: true }).fill('aisle seat')
    expect(await rawInput(page)).toEqual({ ...input, notes: 'aisle seat' })
    expect(await run(page)).toEqual({ output: { received: { ...input, notes: 'aisle seat' } } })
    expect(errors).toEqual([])
  })

  it('sends numbers as numbers, and shows the issues of a bad one', async () => {
    const { page, errors } = await open('#sum')
    await page.getByRole('button', { name: 'Add values' }).click()
    await page.getByRole('button', { name: 'Add values' }).click()
    await page.getByLabel('values 1', { exact: true }).fill('2.5')
    await page.getByLabel('values 2', { exact: true }).fill('4')
    expect(await run(page)).toEqual({ output: { total: 6.5 } })
    await page.getByLabel('Input (JSON)').fill('{ "values": [] }')
    await page.getByRole('button', { name: 'Run' }).click()
    const alert = page.getByRole('alert')
    await alert.getByText('INPUT_VALIDATION_FAILED').waitFor()
    expect(await alert.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^values: /)])
    expect(errors).toEqual([])
  })
})
