// The package as a user gets it: `npm pack`, the tarball's `toolroute init`, `npm install` of the
// tarball into the new project, its `npm test` (vitest in workerd, with the tests of docs/testing.md),
// `npm run dev` (toolroute dev on wrangler dev), a broken and then a
// fixed tool file while it runs, toolroute/client from plain node, a strict tsc of a consumer, and
// `toolroute deploy --dry-run`. This is the README's "Use toolroute in your own project", run.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packedPackage } from './packed-package.ts'
import { freePort } from './wrangler-dev.ts'

const repo = resolve(import.meta.dirname, '../..')
const env = {
  ...process.env,
  // The repository's Node 22 first, as `npm run` gives it (wrangler needs Node 22).
  PATH: `${join(repo, 'node_modules/.bin')}:${process.env.PATH}`,
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  NO_COLOR: '1',
  npm_config_update_notifier: 'false',
}

interface Ran {
  code: number
  stdout: string
  stderr: string
}

function run(command: string, args: string[], cwd: string, timeout = 180_000): Promise<Ran> {
  return new Promise((done) => {
    execFile(command, args, { cwd, env, timeout, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    })
  })
}

let work: string
let tarball: string
let app: string
let server: { child: ChildProcess; url: string; output: () => string } | undefined

const greet = `import { createTool } from 'toolroute'
import { z } from 'zod'

/** Served as POST /tools/greet: try it with \`npm run dev\`, then curl (see README.md). */
export const greet = createTool({
  id: 'greet',
  description: 'Say hello to someone',
  inputSchema: z.object({ name: z.string().min(1) }),
  outputSchema: z.object({ message: z.string() }),
  execute: async ({ name }) => ({ message: \`Hello, \${name}!\` }),
})
`

async function call(name: string): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now()
  const response = await fetch(`${server!.url}/tools/greet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
    signal: AbortSignal.timeout(20_000), // a hang fails the test here
  })
  return { status: response.status, body: await response.json(), ms: Date.now() - started }
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 45_000): Promise<T> {
  const deadline = Date.now() + ms
  let last = await probe()
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200))
    last = await probe()
  }
  return last
}

const count = (text: string, needle: string) => text.split(needle).length - 1

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'toolroute-package-'))
  // The tarball holds compiled output (prepack builds dist/), whatever the working tree has; its
  // own CLI writes the project (what `npx toolroute init` runs).
  const packed = await packedPackage()
  tarball = packed.tarball
  const initialized = await run(process.execPath, [packed.cli, 'init', 'my-tools'], work)
  expect(initialized.stderr).toBe('')
  expect(initialized.code).toBe(0)
  app = join(work, 'my-tools')
  // The project's own dependencies (zod, wrangler, typescript) from the npm cache where it can,
  // toolroute from the tarball; `ai` for toolroute/ai (an optional peer).
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, 'ai@7.0.173'], app, 240_000)
  expect(installed.code, installed.stderr).toBe(0)
}, 420_000)

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    const exited = new Promise((r) => server!.child.once('exit', r))
    process.kill(-server.child.pid!, 'SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]) // then SIGKILL
    try {
      process.kill(-server.child.pid!, 'SIGKILL')
    } catch {}
  }
  if (work) rmSync(work, { recursive: true, force: true })
}, 90_000)

describe('the packed package in a new project', () => {
  it('ships compiled ESM and .d.ts for every entry, the CLI, and no tests, benchmarks or sources', () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/toolroute/package.json'), 'utf8'))
    expect(manifest.bin).toEqual({ toolroute: './cli/toolroute.mjs' })
    for (const [entry, target] of Object.entries<any>(manifest.exports)) {
      if (entry === './package.json') continue
      expect(target.import, entry).toMatch(/^\.\/dist\/.*\.js$/)
      expect(target.types, entry).toMatch(/^\.\/dist\/.*\.d\.ts$/)
      expect(existsSync(join(app, 'node_modules/toolroute', target.import)), target.import).toBe(true)
      expect(existsSync(join(app, 'node_modules/toolroute', target.types)), target.types).toBe(true)
      for (const condition of ['workerd', 'worker']) if (target[condition]) expect(existsSync(join(app, 'node_modules/toolroute', target[condition])), target[condition]).toBe(true)
    }
    // On Workers 'toolroute' and 'toolroute/tools' are the entries that register no JSON Schema validator.
    expect(manifest.exports['.']).toMatchObject({ workerd: './dist/index.js', import: './dist/index-with-json-schema.js' })
    expect(manifest.exports['./tools']).toMatchObject({ workerd: './dist/tools.js', import: './dist/tools-with-json-schema.js' })
    for (const absent of ['src', 'test', 'bench', '.ci', 'tools', 'wrangler.toml']) expect(existsSync(join(app, 'node_modules/toolroute', absent)), absent).toBe(false)
    const init = ['package.json', 'tools/greet.ts', 'test/greet.test.ts', 'vitest.config.ts', 'wrangler.toml', 'tsconfig.json', '.gitignore', 'README.md']
    for (const file of init) expect(existsSync(join(app, file)), file).toBe(true)
    expect(readFileSync(join(app, 'tools/greet.ts'), 'utf8')).toBe(greet)
  })

  it('imports every entry but toolroute/workers and toolroute/deno in plain node', async () => {
    const script = `for (const entry of ['toolroute', 'toolroute/tools', 'toolroute/server', 'toolroute/client', 'toolroute/ai', 'toolroute/testing']) {
      const module = await import(entry)
      console.log(entry, Object.keys(module).length)
    }
    const { createToolApp } = await import('toolroute/server')
    const { createTool } = await import('toolroute')
    const { z } = await import('zod')
    const echo = createTool({ id: 'echo', description: 'x', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ q }) })
    const response = await createToolApp({ tools: [echo] }).request('/tools/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"hi"}' })
    console.log(response.status, JSON.stringify((await response.json()).output))
    // The playground page on localhost: its browser code without the sources' comments (build-package.mjs).
    const page = await (await createToolApp({ tools: [echo] }).request('http://localhost/')).text()
    console.log('page', page.includes('role="log"'), page.includes('---- State'))
    // A plain JSON Schema, called directly: 'toolroute' outside Workers registers its validator on import.
    for (const entry of ['toolroute', 'toolroute/tools']) {
      const plain = (await import(entry)).createTool({ id: 'plain', description: 'x', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, execute: async ({ n }) => ({ n }) })
      const bad = await plain.execute({ n: 'one' })
      console.log('direct', entry, JSON.stringify(await plain.execute({ n: 1 })), bad.error === true && bad.validationErrors !== undefined)
    }
    // runTool needs no pool and no workerd: the call's phases over runs kept in memory.
    const { runTool } = await import('toolroute/testing')
    const ran = await runTool(echo, { q: 'node' })
    console.log('runTool', ran.status, JSON.stringify(ran.output), ran.events.at(-1).type, (await runTool(echo, { q: 1 })).error.code)`
    // This Node (22, the repository's), and the machine's own when it is another (20 in CI).
    const nodes = [process.execPath, ...['/usr/bin/node', '/usr/local/bin/node'].filter((node) => existsSync(node)).slice(0, 1)]
    for (const node of nodes) {
      const result = await run(node, ['--input-type=module', '-e', script], app)
      expect(result.stderr, node).toBe('')
      expect(result.code, node).toBe(0)
      expect(result.stdout).toContain('toolroute/client 3')
      expect(result.stdout).toContain('200 {"q":"hi"}')
      expect(result.stdout).toContain('page true false')
      expect(result.stdout).toContain('direct toolroute {"n":1} true')
      expect(result.stdout).toContain('direct toolroute/tools {"n":1} true')
      expect(result.stdout).toContain('runTool completed {"q":"node"} finish INPUT_VALIDATION_FAILED')
    }
  })

  it('serves the project\'s tools with toolroute/deno in Deno, and deno check passes', async () => {
    writeFileSync(
      join(app, 'deno-serve.ts'),
      `import { createDenoToolApp, loadTools } from 'toolroute/deno'
const { tools } = await loadTools('tools')
const kv = await Deno.openKv(':memory:')
const { app } = await createDenoToolApp({ tools, kv, queue: false })
const response = await app.request('/tools/greet', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Deno"}' })
console.log(response.status, JSON.stringify((await response.json()).output))
kv.close()
`,
    )
    const deno = join(repo, 'node_modules/.bin/deno')
    const served = await run(deno, ['run', '--unstable-kv', '--allow-read', '--allow-env', 'deno-serve.ts'], app)
    expect(served.stdout.trim(), served.stderr).toBe('200 {"message":"Hello, Deno!"}')
    const checked = await run(deno, ['check', '--unstable-kv', 'deno-serve.ts'], app)
    rmSync(join(app, 'deno-serve.ts'))
    expect(checked.code, checked.stderr).toBe(0)
  }, 60_000)

  it('type-checks a consumer with strict settings and skipLibCheck, inferring from the tools; env from cloudflare:workers is typed by wrangler types', async () => {
    expect((await run('npx', ['toolroute', 'build'], app)).code).toBe(0)
    expect((await run('npm', ['run', 'types'], app)).code).toBe(0)
    writeFileSync(
      join(app, 'tools/consumer-check.ts'),
      `import { env } from 'cloudflare:workers'
import { createToolClient } from 'toolroute/client'
import { createToolApp } from 'toolroute/server'
import { toAiSdkTools } from 'toolroute/ai'
import { createWorker, defineConfig, workerKeyStore, workerRunStore } from 'toolroute/workers'
import type { Tools } from '../.toolroute/tools.ts'
import { greet } from './greet.ts'

const client = createToolClient<Tools>({ baseUrl: 'http://localhost:8787' })
export async function check(): Promise<string> {
  const result = await client.call('greet', { name: 'Ada' })
  // @ts-expect-error: greet takes { name: string }
  await client.call('greet', { name: 1 })
  return result.status === 'completed' ? result.output.message : ''
}
export const app = createToolApp({ tools: [greet] })
export const worker = createWorker({ ...defineConfig({ basePath: '/v1' }), tools: [greet], runStore: workerRunStore, keyStore: workerKeyStore })
export const aiTools = toAiSdkTools(client)
// The bindings of wrangler.toml, typed from worker-configuration.d.ts (npm run types).
export const runId: DurableObjectId = env.TOOLROUTE_RUNS.idFromName('run')
// @ts-expect-error: not a binding of wrangler.toml
export const unbound = env.NOT_BOUND
`,
    )
    const checked = await run('npx', ['tsc', '--noEmit'], app)
    rmSync(join(app, 'tools/consumer-check.ts'))
    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)
    const tsconfig = JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8'))
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, skipLibCheck: true })
  }, 120_000)

  it('npm test runs the project\'s tests in workerd; the tests of docs/testing.md pass there, and a wrong expectation fails it', async () => {
    // A fresh project: its one test file, through the Worker `toolroute build` writes.
    const fresh = await run('npm', ['test'], app)
    expect(fresh.code, fresh.stdout + fresh.stderr).toBe(0)
    expect(fresh.stdout).toMatch(/Test Files\s+1 passed \(1\)/)
    expect(fresh.stdout).toMatch(/Tests\s+2 passed \(2\)/)
    // The tools and tests of docs/testing.md, as the page prints them (each block is one of these files).
    const fixture = join(repo, 'test/fixtures/testing-project')
    const copied = ['tools', 'test'].flatMap((folder) => readdirSync(join(fixture, folder)).map((file) => `${folder}/${file}`))
    for (const file of copied) writeFileSync(join(app, file), readFileSync(join(fixture, file), 'utf8'))
    const page = readFileSync(join(repo, 'docs/testing.md'), 'utf8')
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1])
    for (const file of [...copied, 'test/greet.test.ts']) expect(blocks, file).toContain(readFileSync(join(app, file), 'utf8'))
    // Beside them, one test that checks where it runs and one whose expectation is wrong.
    writeFileSync(
      join(app, 'test/wrong.test.ts'),
      `import { createTestClient } from 'toolroute/testing'
import { expect, it } from 'vitest'
it('runs in workerd', () => expect(navigator.userAgent).toBe('Cloudflare-Workers'))
it('expects the wrong greeting', async () => {
  expect(await createTestClient().call('greet', { name: 'Ada' })).toMatchObject({ output: { message: 'Goodbye, Ada!' } })
})
`,
    )
    const failing = await run('npm', ['test'], app)
    // The page's code type-checks too (the run above built .toolroute/ with its tools; the consumer
    // test wrote worker-configuration.d.ts).
    const typed = await run('npx', ['tsc', '--noEmit'], app)
    for (const file of [...copied, 'test/wrong.test.ts']) rmSync(join(app, file))
    expect(typed.stdout + typed.stderr).toBe('')
    expect(failing.code, failing.stdout + failing.stderr).not.toBe(0)
    expect(failing.stdout).toMatch(/Tests\s+1 failed \| 12 passed \(13\)/)
    expect(failing.stdout + failing.stderr).toContain('expects the wrong greeting')
    expect(failing.stdout + failing.stderr).toContain('Goodbye, Ada!')
    expect((await run('npx', ['toolroute', 'build'], app)).code).toBe(0)
  }, 180_000)

  it('npm run dev serves the example tool; a broken tool file answers 503 BUILD_FAILED at once, a fixed one 200', async () => {
    const port = await freePort()
    const child = spawn('npm', ['run', 'dev', '--', '--port', String(port), '--', '--ip', '127.0.0.1', '--inspector-port', String(await freePort())], {
      cwd: app,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout!.on('data', (chunk) => (output += chunk))
    child.stderr!.on('data', (chunk) => (output += chunk))
    server = { child, url: `http://127.0.0.1:${port}`, output: () => output }
    const up = await until(
      () => fetch(`${server!.url}/tools`).then((r) => r.status, () => 0),
      (status) => status === 200 || child.exitCode !== null,
      90_000,
    )
    expect(up, output).toBe(200)
    const first = await call('Ada')
    expect(first.status).toBe(200)
    expect(first.body.output).toEqual({ message: 'Hello, Ada!' })
    // A start builds once (wrangler's [build] hook has nothing left to do).
    expect(count(output, 'toolroute: 1 tool from tools/')).toBe(1)

    // A syntax error: every request answers 503 BUILD_FAILED naming file and line, none hangs.
    let mark = output.length
    writeFileSync(join(app, 'tools/greet.ts'), greet.replace('execute: async', 'execute: async ('))
    const broken = await until(() => call('Ada'), (r) => r.status === 503)
    expect(broken.status).toBe(503)
    expect(broken.body).toEqual({ error: { code: 'BUILD_FAILED', message: expect.stringMatching(/^tools\/greet\.ts:11: /) } })
    for (let i = 0; i < 3; i++) {
      const again = await call('Ada')
      expect(again.status).toBe(503)
      expect(again.ms).toBeLessThan(5000)
    }
    const tools = await fetch(`${server.url}/tools`)
    expect(tools.status).toBe(503)
    // The terminal shows the error once for the save, from toolroute, not inside a wrangler trace.
    const afterBreak = output.slice(mark)
    expect(count(afterBreak, 'tools/greet.ts:11:')).toBe(1)
    expect(afterBreak).not.toMatch(/✘|\[ERROR\]/)

    // Fixed: 200 again, after one build and one reload for the save.
    mark = output.length
    writeFileSync(join(app, 'tools/greet.ts'), greet.replace('Hello', 'Hi'))
    const fixed = await until(() => call('Ada'), (r) => r.status === 200)
    expect(fixed.body.output).toEqual({ message: 'Hi, Ada!' })
    await new Promise((r) => setTimeout(r, 1500)) // a second build would show by now
    const afterFix = output.slice(mark)
    expect(count(afterFix, 'toolroute: 1 tool from tools/')).toBe(1)
    expect(count(afterFix, 'Reloading local server')).toBe(1)
  }, 180_000)

  it('toolroute/client from plain node calls the running dev server', async () => {
    writeFileSync(
      join(app, 'call.mjs'),
      `import { createToolClient } from 'toolroute/client'
const client = createToolClient({ baseUrl: process.argv[2] })
const result = await client.call('greet', { name: 'Grace' })
console.log(result.status, result.output.message)
`,
    )
    const result = await run(process.execPath, ['call.mjs', server!.url], app)
    expect(result.stderr).toBe('')
    expect(result.stdout.trim()).toBe('completed Hi, Grace!')
  })

  it('the packaged Worker serves MCP: the vendored SDK keeps its side effects (package.json sideEffects lists dist/vendor/)', async () => {
    const post = (body: unknown) =>
      fetch(`${server!.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) })
    const opened = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1.0.0' } } })
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain('"protocolVersion":"2025-06-18"')
  })

  it('toolroute deploy --dry-run bundles without Ajv; a broken tool fails the build with exit 1, naming file and line', async () => {
    const out = join(work, 'bundle')
    const deployed = await run('npx', ['toolroute', 'deploy', '--dry-run', '--outdir', out], app)
    expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0)
    expect(deployed.stdout).toContain('--dry-run: exiting now.')
    const bundle = readFileSync(join(out, 'worker.js'), 'utf8')
    expect(bundle).toMatch(/(Hello|Hi), \$\{\w+\}!/) // the tool's own code (its variable renamed: init's wrangler.toml minifies)
    expect(bundle).not.toContain('strictSchema') // Ajv's own code (its core's options), which the vendored MCP SDK leaves out
    expect(bundle).not.toContain('toolroute playground') // a deploy build leaves the page out (no playground: true)
    // Minified, with no __name() wrappers (init's wrangler.toml: minify, keep_names = false). 882 KiB on
    // 2026-12-01, of which the MCP SDK v2 (2026-07-28) is about 200 KiB; Ajv alone would add ~290 KiB
    // more (checked by name above), so the bound catches a validator slipping in.
    expect(bundle).not.toContain('__name(')
    expect(bundle.split('\n').length).toBeLessThan(1000) // 155 lines minified, ~40,000 not
    expect(statSync(join(out, 'worker.js')).size).toBeLessThan(1000 * 1024)

    // Wrangler resolves 'toolroute' with the workerd condition: with MCP off (whose SDK validates with
    // @cfworker/json-schema itself) and only Zod schemas, the Worker bundles no JSON Schema validator.
    writeFileSync(join(app, 'toolroute.config.ts'), `import { defineConfig } from 'toolroute/workers'\nexport default defineConfig({ mcp: false })\n`)
    const lean = await run('npx', ['toolroute', 'deploy', '--dry-run', '--outdir', out, '--', '--metafile'], app)
    expect(lean.code, lean.stdout + lean.stderr).toBe(0)
    const inputsOf = () => Object.keys(Object.values<any>(JSON.parse(readFileSync(join(out, 'bundle-meta.json'), 'utf8')).outputs).find((output) => output.entryPoint).inputs)
    const leanInputs = inputsOf()
    expect(leanInputs.filter((path) => path.includes('@cfworker/json-schema') || path.includes('cfworker-json-schema') || path.includes('index-with-json-schema'))).toEqual([])
    expect(leanInputs.some((path) => path.endsWith('node_modules/toolroute/dist/index.js'))).toBe(true)
    // A tool with a plain JSON Schema brings it in (the build's entry passes it to createWorker).
    writeFileSync(join(app, 'tools/plain.ts'), `import { createTool } from 'toolroute'\nexport const plain = createTool({ id: 'plain', description: 'x', inputSchema: { type: 'object' }, execute: async () => ({}) })\n`)
    const full = await run('npx', ['toolroute', 'deploy', '--dry-run', '--outdir', out, '--', '--metafile'], app)
    expect(full.code, full.stdout + full.stderr).toBe(0)
    expect(inputsOf().some((path) => path.includes('node_modules/@cfworker/json-schema/'))).toBe(true)
    rmSync(join(app, 'tools/plain.ts'))
    rmSync(join(app, 'toolroute.config.ts'))

    writeFileSync(join(app, 'tools/greet.ts'), greet.replace('execute: async', 'execute: async ('))
    const failed = await run('npx', ['toolroute', 'deploy', '--dry-run', '--outdir', out], app)
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/tools\/greet\.ts:11: /)
    const build = await run('npx', ['toolroute', 'build'], app)
    expect(build.code).toBe(1)
    expect(build.stderr).toMatch(/tools\/greet\.ts:11: /)
    writeFileSync(join(app, 'tools/greet.ts'), greet)
  }, 120_000)
})
