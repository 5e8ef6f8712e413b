// `npm run conformance`: the pinned MCP conformance suite (@modelcontextprotocol/conformance) against
// toolroute on local workerd, no network.
// 1. conformance/ (tools named as the suite's scenarios expect), bundled as for deploy and served on
//    workerd: every server scenario at 2025-11-25, then at 2026-07-28 with the tasks extension's.
//    Scenarios in conformance/not-applicable.json are not run; each must answer its probe with -32601.
// 2. The example app (this repository's tools/) served by `npm run dev`: the fixture-free scenarios.
// Both servers listen on ports the OS picks, and both are stopped (the dev server by its process
// group) however the run ends. `--app-only`, `--example-only`, scenario names and `--jobs=N` narrow it.
// Ends with `N passed, N failed` (one per scenario run and per probe); exit status 1 on any failure.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'

const repo = resolve(import.meta.dirname, '..')
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false'
process.env.WRANGLER_SEND_METRICS = 'false'
const versions = ['2025-11-25', '2026-07-28']
const fixtureFree = ['dns-rebinding-protection', 'server-initialize', 'ping', 'tools-list', 'http-header-validation', 'server-sse-multiple-streams']
const notApplicable = JSON.parse(readFileSync(join(repo, 'conformance/not-applicable.json'), 'utf8')).scenarios
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'))
// Scenarios are independent (each opens its own sessions and tasks), so `--jobs=N` runs N at once
// against one server. Default 1: on a two-core machine running them at once was slower, not
// faster (each scenario is mostly its own Node process starting), and one at a time keeps every
// scenario's timing what the suite expects.
const jobs = Math.max(1, Number(process.argv.find((arg) => arg.startsWith('--jobs='))?.slice('--jobs='.length) ?? 1) || 1)
const results = []
// The servers still running: stopped on the way out when CI (or a person) interrupts the run.
const stops = new Set()
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await Promise.allSettled([...stops].map((stop) => stop()))
    process.exit(130)
  })
}

const conformanceBin = join(repo, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')

/** The server scenarios the suite applies at a version (its own `list`), tasks extension included at 2026. */
function scenariosAt(version) {
  const listing = execFileSync(process.execPath, [conformanceBin, 'list', '--server'], { encoding: 'utf8' })
  return [...listing.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)]
    .filter(([, , tags]) => tags.split(',').includes(version) || (version === '2026-07-28' && tags === 'extension' && !/skills/.test(tags)))
    .map(([, name, tags]) => ({ name, extension: tags === 'extension' }))
    .filter(({ name }) => !name.startsWith('sep-2640-skills'))
}

/** One scenario at one version; passes when no check failed. */
function runScenario(url, scenario, version) {
  const out = mkdtempSync(join(tmpdir(), 'toolroute-conformance-'))
  return new Promise((done) => {
    const args = [conformanceBin, 'server', '--url', url, '--scenario', scenario, '--spec-version', version, '--force', '-o', out, '--timeout', '90000']
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => {
      const checks = readChecks(out)
      rmSync(out, { recursive: true, force: true })
      const failures = checks.filter((check) => check.status === 'FAILURE')
      const passed = code === 0 && checks.length > 0 && failures.length === 0
      const why = failures.length ? failures.map((check) => `${check.id}: ${check.errorMessage ?? 'failed'}`).join(' | ') : checks.length ? `exit ${code}` : `no checks (exit ${code}): ${output.trim().split('\n').slice(-3).join(' ')}`
      done({ passed, why })
    })
  })
}

function readChecks(dir) {
  const checks = []
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name))
      else if (entry.name === 'checks.json') checks.push(...JSON.parse(readFileSync(join(path, entry.name), 'utf8')))
    }
  }
  if (existsSync(dir)) walk(dir)
  return checks
}

/** A not-applicable scenario's probe: its method, at the version's wire, must answer -32601. */
async function probe(url, method, version) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version }
  const rpc = async (body, extra = {}) => {
    const response = await fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) })
    const text = await response.text()
    const data = text.startsWith('{') ? text : (text.match(/^data: (.+)$/m)?.[1] ?? 'null')
    return { response, message: JSON.parse(data) }
  }
  const clientInfo = { name: 'toolroute-conformance', version: '1.0.0' }
  let extra = {}
  let params = {}
  if (version === '2026-07-28') {
    params = { _meta: { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': clientInfo, 'io.modelcontextprotocol/clientCapabilities': {} } }
    extra = { 'mcp-method': method }
  } else {
    const init = await rpc({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo } })
    const session = init.response.headers.get('mcp-session-id')
    if (session) extra = { 'mcp-session-id': session }
    await fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
  }
  const { message } = await rpc({ jsonrpc: '2.0', id: 1, method, params }, extra)
  const code = message?.error?.code
  return { passed: code === -32601, why: `${method} answered ${code === undefined ? JSON.stringify(message).slice(0, 200) : code}` }
}

/** Runs `work` over `items`, `jobs` at a time; the results in the items' order, so the report reads the same however they interleave. */
async function pool(items, work) {
  const results = new Array(items.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index])
  }
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker))
  return results
}

/** A port nobody listens on now (the OS picks it), so this never collides with another suite's server. */
function freePort() {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => done(port))
    })
  })
}

function record(label, { passed, why }) {
  results.push({ label, passed })
  console.log(`${passed ? 'PASS' : 'FAIL'}  ${label}${passed ? '' : `  — ${why}`}`)
}

async function conformanceApp() {
  const { startDirectWorkerd } = await import('../test/e2e/direct-workerd.ts')
  // Built as `toolroute dev` builds: a bare build is served locally (SPEC §5: it answers only
  // loopback Hosts, which dns-rebinding-protection checks). startDirectWorkerd bundles with
  // `wrangler deploy --dry-run`, whose [build] hook would rebuild it as a deployed Worker (no Host
  // check); TOOLROUTE_BUILT=1 makes that hook keep this build, as toolroute dev and deploy do.
  execFileSync(process.execPath, [join(repo, 'cli/toolroute.mjs'), 'build', 'conformance'], { cwd: repo, stdio: 'ignore' })
  process.env.TOOLROUTE_BUILT = '1'
  const server = await startDirectWorkerd('conformance/wrangler.toml').finally(() => delete process.env.TOOLROUTE_BUILT)
  const url = `${server.url}/mcp`
  console.log(`== conformance app on workerd: ${url}`)
  stops.add(server.stop)
  try {
    for (const version of versions) {
      const names = scenariosAt(version).map(({ name }) => name).filter((name) => !only.length || only.includes(name))
      const ran = await pool(names, async (name) =>
        notApplicable[name]
          ? { label: `${version} ${name} (not applicable: ${notApplicable[name].reason}; probe -32601)`, result: await probe(url, notApplicable[name].probe, version) }
          : { label: `${version} ${name}`, result: await runScenario(url, name, version) },
      )
      for (const { label, result } of ran) record(label, result)
    }
  } finally {
    stops.delete(server.stop)
    await server.stop()
  }
}

/** The example app as a user runs it: `npm run dev` (toolroute dev) on a port of its own. */
async function exampleApp() {
  const port = Number(process.env.TOOLROUTE_CONFORMANCE_DEV_PORT ?? (await freePort()))
  const inspectorPort = await freePort()
  const child = spawn('npm', ['run', 'dev', '--', '--port', String(port), '--', '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort)], {
    cwd: repo,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const base = `http://127.0.0.1:${port}`
  // Its own process group (wrangler, workerd and the rebuilder under npm): stopped whole, however this ends.
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {}
  }
  stops.add(stop)
  try {
    const deadline = Date.now() + 120_000
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`)
      if (Date.now() > deadline) throw new Error(`npm run dev did not answer on ${base}:\n${output}`)
      try {
        if ((await fetch(`${base}/tools`)).ok) break
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    console.log(`== example app under npm run dev: ${base}/mcp`)
    for (const version of versions) {
      const applicable = new Set(scenariosAt(version).map(({ name }) => name))
      const names = fixtureFree.filter((name) => applicable.has(name))
      const ran = await pool(names, (name) => runScenario(`${base}/mcp`, name, version))
      names.forEach((name, index) => record(`example app ${version} ${name}`, ran[index]))
    }
  } finally {
    stops.delete(stop)
    await stop()
  }
}

try {
  if (!process.argv.includes('--example-only')) await conformanceApp()
  if (!process.argv.includes('--app-only')) await exampleApp()
} catch (error) {
  console.error(error)
  results.push({ label: 'harness', passed: false })
}
const passed = results.filter((result) => result.passed).length
console.log(`\n${passed} passed, ${results.length - passed} failed`)
process.exit(results.length - passed === 0 ? 0 : 1)
