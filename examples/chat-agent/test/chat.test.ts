// The example against `wrangler dev`, the agent on the scripted mock model: src/ask.ts
// (generateText) in Node, then the chat page in headless Chromium: a message, a tool call with its
// progress, an approval, a decline, the answers, and a reload that replays the runs from toolroute's log.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { generateText } from 'ai'
import { chromium, type Browser, type Page } from 'playwright-core'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient } from 'toolroute/client'
import { ask } from '../src/ask.ts'
import { modelOf } from '../src/model.ts'
import { startWranglerDev } from '../../wrangler-dev.ts'

const screenshots = 'test-results'
let server: Awaited<ReturnType<typeof startWranglerDev>>
let browser: Browser
let page: Page
let state: string
const started = Date.now()
const mark = (what: string) => console.log(`# ${what} at ${Date.now() - started} ms`)

before(async () => {
  state = mkdtempSync(join(tmpdir(), 'chat-agent-'))
  server = await startWranglerDev(state)
  mark('wrangler dev up')
  mkdirSync(screenshots, { recursive: true })
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  page = await browser.newPage()
  page.setDefaultTimeout(30_000)
  await page.goto(server.url)
  mark('page loaded')
})

after(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(state, { recursive: true, force: true })
})

test('generateText with stopWhen calls the tool, then answers from its result', async () => {
  assert.equal(await ask(modelOf({ MODEL: 'mock' }), 'Index the docs', server.url), 'Done: {"indexed":3,"tokens":3400}')
})

test('without stopWhen, the answer is empty: generateText stops at the step that called the tool', async () => {
  const tools = await toAiSdkTools(createToolClient({ baseUrl: server.url }))
  const result = await generateText({ model: modelOf({ MODEL: 'mock' }), tools, prompt: 'Index the docs' })
  assert.equal(result.text, '')
  assert.deepEqual(result.steps[0]!.toolResults[0]!.output, { indexed: 3, tokens: 3400 })
})

async function say(text: string) {
  await page.getByLabel('Message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

const lastAnswer = () => page.locator('[data-role="assistant"]').last().locator('.text')
const texts = (selector: string) => page.locator(selector).allTextContents()

test('a message runs a tool that writes: its progress, its output, then the answer', async () => {
  await say('Index the docs')
  const tool = page.locator('.tool[data-tool="index-docs"]')
  await tool.locator('.output').waitFor()
  // Each value the tool wrote, as the AI SDK's preliminary results; the AI SDK sends the last value
  // (the output) as a preliminary result too, before the final one.
  assert.deepEqual(await tool.locator('.progress li').allTextContents(), [
    '{"file":"getting-started.md","indexed":1,"total":3}',
    '{"file":"agents.md","indexed":2,"total":3}',
    '{"file":"runs.md","indexed":3,"total":3}',
    '{"indexed":3,"tokens":3400}',
  ])
  assert.equal(await tool.locator('.output').textContent(), '{"indexed":3,"tokens":3400}')
  await lastAnswer().filter({ hasText: 'Done' }).waitFor()
  assert.equal((await lastAnswer().textContent())?.trim(), 'Done: {"indexed":3,"tokens":3400}')
})

test('a tool that asks shows Approve / Decline; Approve runs it once and the agent answers', async () => {
  await say('Please delete notes.txt')
  const tool = page.locator('.tool[data-tool="delete-file"]').last()
  await tool.getByRole('button', { name: 'Approve' }).waitFor()
  await page.screenshot({ path: `${screenshots}/approval.png` })
  await tool.getByRole('button', { name: 'Approve' }).click()
  await tool.locator('.output').waitFor()
  assert.equal(await tool.locator('.output').textContent(), '{"deleted":"notes.txt"}')
  await lastAnswer().filter({ hasText: 'Done' }).waitFor()
  assert.equal((await lastAnswer().textContent())?.trim(), 'Done: {"deleted":"notes.txt"}')
})

test('Decline: the tool never runs, and the agent answers so', async () => {
  await say('delete keep.txt')
  const tool = page.locator('.tool[data-tool="delete-file"]').last()
  await tool.getByRole('button', { name: 'Decline' }).click()
  await tool.locator('.denied').waitFor()
  await lastAnswer().filter({ hasText: 'left it alone' }).waitFor()
  await page.screenshot({ path: `${screenshots}/chat.png`, fullPage: true })
})

test('a reload shows the chat again and replays each run from toolroute', async () => {
  await page.reload()
  const replays = page.locator('.replay')
  await replays.first().locator('li').nth(3).waitFor()
  assert.deepEqual(await replays.first().locator('li').allTextContents(), [
    'wrote {"file":"getting-started.md","indexed":1,"total":3}',
    'wrote {"file":"agents.md","indexed":2,"total":3}',
    'wrote {"file":"runs.md","indexed":3,"total":3}',
    'output {"indexed":3,"tokens":3400}',
  ])
  await replays.nth(1).locator('li').first().waitFor()
  assert.deepEqual(await replays.nth(1).locator('li').allTextContents(), ['output {"deleted":"notes.txt"}'])
  // Two runs: the declined call never reached the server.
  assert.equal(await replays.count(), 2)
  const deleteRun = await replays.nth(1).getAttribute('data-run')
  const run = await (await fetch(`${server.url}/runs/${deleteRun}`)).json()
  assert.equal(run.status, 'completed')
  assert.deepEqual(await texts('[data-role="user"] .text'), [' Index the docs', ' Please delete notes.txt', ' delete keep.txt'])
  await page.screenshot({ path: `${screenshots}/reloaded.png`, fullPage: true })
})
