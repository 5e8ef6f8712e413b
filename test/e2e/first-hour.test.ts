// A newcomer's first hour (SPEC §7, issue #49), from the packed tarball alone, on the machine's own
// Node (20 here and in CI: the PATH has no node_modules/.bin of this repository), following the
// package's README and docs to the letter: the README's Quick start (`npx toolroute init`, `npm
// install`, `npm test`, `tsc`, `npm run dev` and its curl calls, JSON and SSE) with no network,
// every link of the README and of the pages it links, then docs/secrets.md's tool (`process.env`)
// called on Workers and docs/deno.md's serve.ts serving the same tools under `npx deno`.
//
// `npm run dev` and Deno run in a network namespace of their own (`unshare -rn`, loopback only):
// offline for real, and the README's own ports (8787, 8000) are free there whatever else runs. Where
// the machine cannot make one, they run on free ports with the network on.
import { execFile, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brokenLinks } from '../shared/broken-links.ts'
import { packedPackage } from './packed-package.ts'
import { freePort } from './wrangler-dev.ts'

const repo = resolve(import.meta.dirname, '../..')

// What a user's shell has: no npm_* or VITEST* variables of the run that started this test, and a
// PATH without any node_modules/.bin (so `node` is the machine's own, `npm` its own npm).
const env: Record<string, string> = {
  HOME: process.env.HOME!,
  PATH: process.env.PATH!.split(':').filter((entry) => !entry.includes('node_modules')).join(':'),
  LANG: 'C.UTF-8',
  NO_COLOR: '1',
  CI: 'true', // no prompts
  npm_config_update_notifier: 'false',
}

interface Ran {
  code: number
  stdout: string
  stderr: string
}

function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}, timeout = 150_000): Promise<Ran> {
  return new Promise((done) => {
    const child = execFile(command, args, { cwd, env: { ...env, ...extra }, timeout, maxBuffer: 64 << 20, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    )
    child.stdin?.end()
  })
}

/** The fenced block of a docs page that starts with `// <file>` (or `# <file>`), as the page shows it. */
function block(page: string, file: string): string {
  const found = [...page.matchAll(/```\w*\n([\s\S]*?)```/g)].map((match) => match[1]!).find((text) => text.startsWith(`// ${file}\n`) || text.startsWith(`# ${file}\n`))
  if (!found) throw new Error(`no block for ${file}`)
  return found
}

/** The command lines of a page's sh blocks that start with `prefix`. */
const commands = (page: string, prefix: string) =>
  [...page.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split('\n')).filter((line) => line.startsWith(prefix))

/** The lines of a terminal's output that show an error or a stack frame. */
const errorLines = (output: string) => output.split('\n').filter((line) => /\bError\b|^\s+at .+[:(]/.test(line))

// Runs `script` (bash) offline in namespaces of its own (network: loopback only; pid: nothing it
// starts outlives it), or, where those cannot be made, as a process group of its own.
const isolated = (() => {
  try {
    execFileSync('unshare', ['-rnp', '--fork', 'true'], { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false
  }
})()

async function runScript(script: string, cwd: string, extra: Record<string, string>): Promise<Ran> {
  writeFileSync(join(cwd, '.first-hour.sh'), script)
  const [command, args] = isolated ? ['unshare', ['-rnp', '--fork', '--kill-child', 'setsid', 'bash', '.first-hour.sh']] : ['bash', ['.first-hour.sh']]
  const child = spawn(command, args as string[], { cwd, env: { ...env, ...extra }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 150_000)
  const code = await new Promise<number>((done) => child.on('close', (status) => done(status ?? 1)))
  clearTimeout(timer)
  rmSync(join(cwd, '.first-hour.sh'))
  return { code, stdout, stderr }
}

/** Waits for `url` to answer, then runs `calls`; stops everything the script started. */
const serveThenCall = (serve: string, url: string, calls: string) => `set -u
${isolated ? 'ip link set lo up' : ''}
${serve} >.first-hour.out 2>.first-hour.err &
for i in $(seq 1 450); do curl -s -o /dev/null ${url} && break; sleep 0.2; done
${calls}
trap '' TERM
kill -TERM 0
wait
`

let work: string
let app: string
let readme: string

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'toolroute-first-hour-'))
  const { tarball } = await packedPackage()
  // `npx toolroute init my-tools`, with the tarball in place of the registry's toolroute.
  const initialized = await run('npx', ['--yes', '--prefer-offline', '-p', tarball, 'toolroute', 'init', 'my-tools'], work)
  expect(initialized.code, initialized.stderr).toBe(0)
  // npx on Node 20 may warn (engines) but says nothing else.
  expect(initialized.stderr.split('\n').filter((line) => line && !line.startsWith('npm warn'))).toEqual([])
  expect(initialized.stdout).toMatch(/Its scripts run on Node 22\.\d+\.\d+ \(the `node` dev dependency\)/)
  app = join(work, 'my-tools')
  // `npm install`, where the registry's toolroute is the tarball. Every other package at the version
  // this repository is tested with (its lockfile), from npm's cache: the test checks toolroute, not
  // the registry's newest hono.
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  const direct = new Set(['toolroute', ...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)])
  const versions = new Map<string, Set<string>>()
  for (const [path, entry] of Object.entries<{ version?: string }>(JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')).packages)) {
    const name = path.replace(/^.*node_modules\//, '')
    if (path && entry.version && !direct.has(name)) versions.set(name, (versions.get(name) ?? new Set()).add(entry.version))
  }
  for (const [name, found] of versions) if (found.size === 1) manifest.overrides[name] = [...found][0]
  manifest.dependencies.toolroute = `file:${tarball}`
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], app, {}, 240_000)
  expect(installed.code, installed.stdout + installed.stderr).toBe(0)
  readme = readFileSync(join(app, 'node_modules/toolroute/README.md'), 'utf8')
}, 360_000)

afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true })
  // npx installed the tarball into npm's cache, under _npx/<hash>, once per run (the tarball's path is new each time).
  const npx = join(env.HOME, '.npm/_npx')
  const { tarball } = await packedPackage()
  for (const dir of existsSync(npx) ? readdirSync(npx) : []) {
    const manifest = join(npx, dir, 'package.json')
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(tarball)) rmSync(join(npx, dir), { recursive: true, force: true })
  }
})

describe("a newcomer's first hour, from the packed package on the machine's own Node", () => {
  it("the machine's Node runs npm; the project's scripts run on the project's Node 22", async () => {
    const machine = await run('node', ['--version'], app)
    const project = await run('npx', ['node', '--version'], app)
    expect(project.stdout.trim()).toMatch(/^v22\./)
    // (Node 20 here and in CI: what the test is for. Elsewhere it still runs, on that Node.)
    console.log(`first hour: the machine's node ${machine.stdout.trim()}, the project's ${project.stdout.trim()}`)
  })

  it('tsc passes on the fresh project before any other command (npm install wrote the types)', async () => {
    const checked = await run('npx', ['tsc', '--noEmit'], app)
    expect(checked.stdout + checked.stderr).toBe('')
    expect(checked.code).toBe(0)
  }, 60_000)

  it('npm test runs the example test in workerd', async () => {
    const tested = await run('npm', ['test'], app)
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/Tests\s+2 passed \(2\)/)
    // Nothing on stderr: no warning of a library the project does not use (workers-oauth-provider's CIMD one).
    expect(tested.stderr).toBe('')
  }, 150_000)

  it("npm run dev serves offline without an error or a stack; the README's curl calls (JSON, SSE) and docs/secrets.md's secret tool answer", async () => {
    // docs/secrets.md: the tool and .dev.vars, as the page shows them.
    const secrets = readFileSync(join(app, 'node_modules/toolroute/docs/secrets.md'), 'utf8')
    writeFileSync(join(app, 'tools/greet-secret.ts'), block(secrets, 'tools/greet-secret.ts').replace(/^\/\/ .*\n/, ''))
    writeFileSync(join(app, '.dev.vars'), block(secrets, '.dev.vars').replace(/^# .*\n/, ''))
    // The README's calls and the page's, to the README's port; elsewhere to a free one.
    const port = isolated ? 8787 : await freePort()
    const calls = [...commands(readme, 'curl -s'), ...commands(secrets, 'curl -s')].map((line) => `${line.replaceAll('localhost:8787', `localhost:${port}`)}; echo`)
    expect(calls.length).toBe(4)
    const serve = isolated ? 'npm run dev' : `npm run dev -- --port ${port} -- --inspector-port ${await freePort()}`
    const ran = await runScript(serveThenCall(serve, `localhost:${port}/tools`, calls.join('\n')), app, {})
    const out = readFileSync(join(app, '.first-hour.out'), 'utf8')
    const err = readFileSync(join(app, '.first-hour.err'), 'utf8')
    expect(ran.code, ran.stderr + out + err).toBe(0)
    const [json, sse, invalid, secret] = splitAnswers(ran.stdout)
    expect(JSON.parse(json!)).toMatchObject({ status: 'completed', output: { message: 'Hello, Ada!' }, modelOutput: { type: 'json', value: { message: 'Hello, Ada!' } } })
    expect(sse).toMatch(/^id: 1\ndata: \{"type":"start","messageMetadata":\{"runId":/)
    expect(sse).toContain('data: {"type":"tool-output-available","toolCallId":"call_')
    expect(sse).toContain('"output":{"message":"Hello, Ada!"}}')
    expect(sse).toContain('data: [DONE]')
    expect(JSON.parse(invalid!)).toMatchObject({ error: { code: 'INPUT_VALIDATION_FAILED', issues: [{ path: ['name'] }] } })
    expect(JSON.parse(secret!)).toMatchObject({ status: 'completed', output: { message: 'Bonjour, Ada!' } })
    expect(out).toContain('toolroute: 2 tools from tools/')
    expect(errorLines(out + err)).toEqual([])
    expect(err).toBe('')
  }, 180_000)

  it('every link of the README, and of every page it leads to, resolves inside the package or is absolute', () => {
    const pkg = join(app, 'node_modules/toolroute')
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'))
    expect(manifest.repository.url).toMatch(/^git\+https:\/\//)
    expect(manifest.homepage).toMatch(/^https:\/\//)
    expect(brokenLinks(pkg, 'README.md', (path) => existsSync(join(pkg, path)))).toEqual([])
    expect(brokenLinks(app, 'README.md', (path) => existsSync(join(app, path)))).toEqual([])
  })

  it("Deno serves the same project's tools (docs/deno.md): the secret tool reads process.env there too", async () => {
    const deno = readFileSync(join(app, 'node_modules/toolroute/docs/deno.md'), 'utf8')
    // `npm install -D deno`, at the version this repository is tested with (from npm's cache).
    expect(commands(deno, 'npm install -D deno')).toEqual(['npm install -D deno'])
    const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).devDependencies.deno
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '-D', `deno@${version}`], app)
    expect(installed.code, installed.stderr).toBe(0)
    writeFileSync(join(app, 'serve.ts'), block(deno, 'serve.ts').replace(/^\/\/ .*\n/, ''))
    const [check] = commands(deno, 'npx deno check')
    const checked = await run('bash', ['-c', check!], app)
    expect(checked.code, checked.stderr).toBe(0)
    const [serve] = commands(deno, 'npx deno run')
    const port = isolated ? 8000 : await freePort()
    const calls = [...commands(deno, 'curl -s'), `curl -s localhost:8000/tools/greet-secret -H 'content-type: application/json' -d '{"name":"Ada"}'`].map(
      (line) => `${line.replaceAll('localhost:8000', `localhost:${port}`)}; echo`,
    )
    // docs/secrets.md: under Deno, the secret is in the process's environment.
    const ran = await runScript(serveThenCall(serve!, `localhost:${port}/tools`, calls.join('\n')), app, { GREETING_PREFIX: 'Bonjour', PORT: String(port) })
    const out = readFileSync(join(app, '.first-hour.out'), 'utf8')
    const err = readFileSync(join(app, '.first-hour.err'), 'utf8')
    expect(ran.code, ran.stderr + out + err).toBe(0)
    const [greet, secret] = ran.stdout.trim().split('\n').map((line) => JSON.parse(line))
    expect(greet).toMatchObject({ status: 'completed', output: { message: 'Hello, Deno!' } })
    expect(secret).toMatchObject({ status: 'completed', output: { message: 'Bonjour, Ada!' } })
    expect(out).toContain(`toolroute: listening on http://127.0.0.1:${port}/`)
    expect(err).toBe('')
  }, 120_000)
})

/** The answers of the dev calls: JSON lines, and the SSE call's events (blank-line separated) up to [DONE]. */
function splitAnswers(stdout: string): string[] {
  const done = stdout.indexOf('data: [DONE]')
  const first = stdout.indexOf('\n')
  return [stdout.slice(0, first), stdout.slice(first + 1, done + 'data: [DONE]'.length), ...stdout.slice(done + 'data: [DONE]'.length).trim().split('\n')]
}
