// SPEC §7: `toolroute dev` works offline without printing stack traces. Offline, wrangler's Miniflare
// fetched the `Request.cf` object (https://workers.cloudflare.com/cf.json) on start and on every reload,
// and printed "Unable to fetch the `Request.cf` object!" with the fetch's stack (issue #49). Here the
// real CLI and the real wrangler serve the project `toolroute init` writes, with the network made
// unreachable for certain (every fetch goes to a proxy on a closed port; loopback is not proxied),
// through its start, one call and one reload; nothing it prints is an error or a stack.
import { spawn } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
// @ts-expect-error: the CLI is plain JavaScript without declarations
import { exampleTool, init } from '../../cli/init.mjs'
import { freePort } from './wrangler-dev.ts'

const repo = resolve(import.meta.dirname, '../..')
const app = join(repo, '.toolroute-test-tmp', `dev-offline-${process.pid}`)
afterAll(() => rmSync(app, { recursive: true, force: true }))

/** Retries `probe` until `done` holds (a server starting, a reload landing). */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  let value = await probe()
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    value = await probe()
  }
  return value
}

describe('toolroute dev, offline', () => {
  it('starts, serves a call and reloads without printing an error or a stack', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    expect(init(app)).toBe(0)
    vi.restoreAllMocks()
    // Inside this repository 'toolroute' is its sources, and the build its own CLI.
    const toml = readFileSync(join(app, 'wrangler.toml'), 'utf8').replace('command = "npx toolroute build"', `command = "node ${join(repo, 'cli/toolroute.mjs')} build"`)
    writeFileSync(join(app, 'wrangler.toml'), `${toml}\n[alias]\n"toolroute" = "${join(repo, 'src/index.ts')}"\n"toolroute/workers" = "${join(repo, 'src/workers.ts')}"\n`)
    const [port, inspector, closed] = [await freePort(), await freePort(), await freePort()]
    // Not vitest's NODE_ENV=test either: Miniflare skips the fetch under it.
    const { CLOUDFLARE_CF_FETCH_ENABLED: _, NODE_ENV: __, ...inherited } = process.env
    const proxy = `http://127.0.0.1:${closed}`
    const child = spawn(process.execPath, [join(repo, 'cli/toolroute.mjs'), 'dev', '--port', String(port), '--', '--ip', '127.0.0.1', '--inspector-port', String(inspector)], {
      cwd: app,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...inherited, HTTPS_PROXY: proxy, HTTP_PROXY: proxy, NO_COLOR: '1', WRANGLER_SEND_METRICS: 'false' },
    })
    let [stdout, stderr] = ['', '']
    child.stdout!.on('data', (chunk) => (stdout += chunk))
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    const url = `http://127.0.0.1:${port}`
    const call = () =>
      fetch(`${url}/tools/greet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' }).then(
        async (response) => ((await response.json()) as { output?: { message: string } }).output?.message,
        () => undefined,
      )
    try {
      expect(await until(call, (message) => message !== undefined || child.exitCode !== null), stdout + stderr).toBe('Hello, Ada!')
      writeFileSync(join(app, 'tools/greet.ts'), exampleTool.replace('Hello, ', 'Hi, '))
      expect(await until(call, (message) => message === 'Hi, Ada!' || child.exitCode !== null), stdout + stderr).toBe('Hi, Ada!')
    } finally {
      process.kill(-child.pid!, 'SIGTERM')
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)))
    }
    // wrangler did try the network (it says it uses the proxy): the cf object was never fetched.
    expect(stdout + stderr).toMatch(/Proxy environment variables detected/)
    expect(`${stdout}\n${stderr}`.split('\n').filter((line) => /\bError\b|Unable to fetch|^\s+at\s/.test(line))).toEqual([])
  }, 60_000)
})
