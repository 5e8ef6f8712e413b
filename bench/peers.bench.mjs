// toolroute against what a user would use instead (issue #50), each part with the same alternated rounds
// and per-round ratios (median, 95% bootstrap interval) as `http`:
//   mcp    a 2026-07-28 MCP `tools/call` of the weather tool on workerd: toolroute's one-tool Worker (MCP on,
//          the default config, `toolroute build --deploy`) against Cloudflare's `agents` `createMcpHandler` +
//          SDK v2 `McpServer` Worker (peers/agents-mcp-worker.ts); both bundled by `wrangler deploy --dry-run
//          --minify`, served by one Miniflare with a direct socket each, loaded by autocannon; req/s and
//          workerd's CPU a request.
//   mcp-wrangler  the same call on the same two projects, each served by its own real `wrangler dev` (local, loopback,
//          random ports), as a user runs them before deploying: wrangler bundles them itself and answers behind its
//          dev proxy; req/s and the CPU a request of the whole wrangler dev (wrangler and its workerd).
//   node   the same tool over HTTP on Node, each server a process of its own (loaded one at a time):
//          `toolroute/server` `createToolApp` (peers/toolroute-server.ts) on its own route and on its
//          Mastra-compatible `/api/tools/:id/execute`, against Mastra's server (`@mastra/hono`, peers/mastra-server.mjs);
//          req/s, p99 and the server process's CPU a request.
//   cold   Node cold start: spawn → the first 200 of a call, and the peak RSS then, the two servers alternated.
//   bundle the one-tool Worker with MCP beside the MCP-only `agents` Worker: raw and gzip, and bytes per
//          package from the metafile.
//
// node bench/run.mjs peers [--part bundle,mcp,mcp-wrangler,node,cold] [--rounds 8] [--seconds 3] [--connections 10] [--cold-runs 10] [--json]
import autocannon from 'autocannon'
import { build } from 'esbuild'
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { bundleShares } from '../scripts/bundle-inputs.mjs'
import { commandLine, median, medianInterval, saveResult, workerdCpuNs } from './measure.mjs'
import { wranglerBundle, wranglerEnv } from './wrangler-bundle.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const { option, asJson, log } = commandLine()
const rounds = Number(option('--rounds', 8))
const seconds = Number(option('--seconds', 3))
const connections = Number(option('--connections', 10))
const coldRuns = Number(option('--cold-runs', 10))
const parts = option('--part', 'bundle,mcp,mcp-wrangler,node,cold').split(',')
// `--against <checkout>` (e.g. `git archive <rev> | tar -x -C /tmp/before`): that checkout's server joins the `node` part, for a before-and-after.
const against = option('--against', undefined)
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
const two = (value) => value.toFixed(2)
const interval = ([low, high]) => `[${two(low)}, ${two(high)}]`
const report = { date: new Date().toISOString(), rounds, seconds, connections }

// --- shared ------------------------------------------------------------------------------------
function load(url, { headers, body }, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'POST', headers, body, connections, duration }, (error, result) => {
      if (error) return reject(error)
      if (result.errors || result.non2xx || result.timeouts) return reject(new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`))
      resolve(result)
    })
  })
}

/** The CPU time of a process, all its threads (Linux /proc), in ns; undefined elsewhere. */
function processCpuNs(pid) {
  if (!existsSync(`/proc/${pid}/task`)) return undefined
  return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]), 0)
}

/**
 * Loads each contender `rounds` times for `seconds`, order rotated each round, after a warm-up;
 * `cpu(name)` reads the CPU time (ns) of whatever serves it, `part(name)` (if given) that of a part of it. Returns per-contender samples.
 */
async function alternate(contenders, cpu, part = () => undefined) {
  const names = Object.keys(contenders)
  for (const name of names) await load(contenders[name].url, contenders[name], Math.max(3, seconds))
  const samples = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const name of names.map((_, index) => names[(index + round) % names.length])) {
      const [before, partBefore] = [cpu(name), part(name)]
      const result = await load(contenders[name].url, contenders[name], seconds)
      const [after, partAfter] = [cpu(name), part(name)]
      const perRequest = (from, to) => (from === undefined ? undefined : (to - from) / 1000 / result.requests.total)
      samples[name].push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs: perRequest(before, after), partCpuUs: perRequest(partBefore, partAfter) })
    }
  }
  return samples
}

/** Per-round ratios of `name` over `baseline`: req/s (above 1: faster), CPU a request (baseline ÷ name: above 1, cheaper), p99 (name ÷ baseline). */
function ratiosOf(samples, name, baseline) {
  const per = (f) => samples[name].map((sample, index) => f(sample, samples[baseline][index]))
  const rps = per((a, b) => a.rps / b.rps)
  const cpu = samples[name][0].cpuUs === undefined ? undefined : per((a, b) => b.cpuUs / a.cpuUs)
  const p99 = per((a, b) => a.p99 / b.p99)
  return {
    rps: median(rps),
    rpsInterval: medianInterval(rps),
    rpsRounds: rps,
    cpu: cpu && median(cpu),
    cpuInterval: cpu && medianInterval(cpu),
    cpuRounds: cpu,
    p99: median(p99),
  }
}

function printTable(title, samples, comparisons) {
  log(`\n${title}`)
  log(`  ${'contender'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(11)}`)
  for (const [name, list] of Object.entries(samples)) {
    const cpu = list[0].cpuUs === undefined ? '–' : median(list.map((s) => s.cpuUs)).toFixed(1)
    log(`  ${name.padEnd(34)} ${median(list.map((s) => s.rps)).toFixed(0).padStart(8)} ${String(median(list.map((s) => s.p50))).padStart(7)} ${String(median(list.map((s) => s.p99))).padStart(7)} ${cpu.padStart(11)}`)
  }
  for (const [label, ratio] of Object.entries(comparisons)) {
    log(`  ${label}: req/s ${two(ratio.rps)}× ${interval(ratio.rpsInterval)}${ratio.cpu ? `, CPU a request ${two(ratio.cpu)}× ${interval(ratio.cpuInterval)}` : ''}, p99 ${two(ratio.p99)}×   (rounds ${ratio.rpsRounds.map(two).join(', ')})`)
  }
}

// --- the two Workers -----------------------------------------------------------------------------
// Both projects live outside bench/, so that their Zod and MCP SDK resolve to the repository's (bench/ has its own Zod).
const scratch = join(root, '.toolroute-test-tmp/bench-peers')

/**
 * tools/weather-tool.ts alone with the example's bindings, built for deployment: the default config (MCP on),
 * or `config` in its toolroute.config.ts; `mcpSessions: false` drops the TOOLROUTE_MCP binding (stateless MCP);
 * `deploy: false` builds it as wrangler dev's [build] hook does (the playground page, loopback Hosts only).
 */
function toolrouteProject(name = 'toolroute', config = undefined, { mcpSessions = true, deploy = true } = {}) {
  const dir = join(scratch, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'tools'), { recursive: true })
  copyFileSync(join(root, 'tools/weather-tool.ts'), join(dir, 'tools/weather-tool.ts'))
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
    .replace(/^main = .*$/m, 'main = ".toolroute/worker.ts"')
    .replace(/^upload_source_maps = .*$/m, '')
    .replace(/^\[build\][\s\S]*?(?=^\[)/m, '')
    .replace(/^"(toolroute[^"]*)" = "\.\/(.*)"$/gm, (_, name, path) => `"${name}" = "${join(root, path)}"`)
    .replace(mcpSessions ? /^$/ : /^\[\[durable_objects\.bindings\]\]\nname = "TOOLROUTE_MCP"\nclass_name = "McpSessionObject"\n/m, '')
  writeFileSync(join(dir, 'wrangler.toml'), toml)
  if (config) writeFileSync(join(dir, 'toolroute.config.ts'), `import { defineConfig } from 'toolroute/workers'\n\nexport default defineConfig(${JSON.stringify(config)})\n`)
  const build = deploy ? ['build', '--deploy', dir] : ['build', dir]
  execFileSync(process.execPath, ['cli/toolroute.mjs', ...build], { cwd: root, env: { ...wranglerEnv, WRANGLER_COMMAND: deploy ? 'deploy' : 'dev' }, stdio: 'pipe' })
  return join(dir, 'wrangler.toml')
}

/** peers/agents-mcp-worker.ts as a project of its own, `agents` taken from bench/node_modules. */
function agentsProject() {
  const dir = join(scratch, 'agents')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(here, 'peers/agents-mcp-worker.ts'), join(dir, 'worker.ts'))
  const compatibilityDate = readFileSync(join(root, 'wrangler.toml'), 'utf8').match(/^compatibility_date = "(.*)"$/m)[1]
  writeFileSync(
    join(dir, 'wrangler.toml'),
    `name = "agents-mcp"\nmain = "worker.ts"\ncompatibility_date = "${compatibilityDate}"\ncompatibility_flags = ["nodejs_compat"]\nminify = true\nkeep_names = false\n\n[alias]\n"agents/mcp/server" = "${join(here, 'node_modules/agents/dist/mcp/server/index.js')}"\n`,
  )
  return join(dir, 'wrangler.toml')
}

let workers
function bundleWorkers() {
  if (workers) return workers
  const toolroute = toolrouteProject()
  const agents = agentsProject()
  workers = { toolroute: { config: toolroute, ...wranglerBundle('peers/toolroute', toolroute) }, agents: { config: agents, ...wranglerBundle('peers/agents', agents) } }
  return workers
}

// --- bundle --------------------------------------------------------------------------------------
if (parts.includes('bundle')) {
  const { toolroute, agents } = bundleWorkers()
  const sizes = {}
  for (const [name, { outdir, scriptPath }] of Object.entries({ toolroute, agents })) {
    const code = readFileSync(scriptPath)
    const { owners, carried } = bundleShares(JSON.parse(readFileSync(join(outdir, 'bundle-meta.json'), 'utf8')))
    sizes[name] = { raw: code.byteLength, gzip: gzipSync(code).byteLength, owners: Object.fromEntries(owners), carried }
  }
  // What the default config's optional parts weigh: the same tool with each turned off in its config. The last is
  // the like-for-like of the `agents` Worker: the one tool over stateless MCP, no key store, no OpenAPI or Mastra routes.
  const mcpOnly = 'MCP-only: + openapi: false, no TOOLROUTE_MCP'
  const variants = {
    'idempotency: false': [{ idempotency: false }],
    'idempotency: false, mastra: false': [{ idempotency: false, mastra: false }],
    'idempotency: false, mastra: false, openapi: false': [{ idempotency: false, mastra: false, openapi: false }],
    [mcpOnly]: [{ idempotency: false, mastra: false, openapi: false }, { mcpSessions: false }],
  }
  for (const [label, [config, flags]] of Object.entries(variants)) {
    const name = label === mcpOnly ? 'toolroute-mcp-only' : `toolroute-${Object.keys(sizes).length}`
    const { scriptPath } = wranglerBundle(`peers/${name}`, toolrouteProject(name, config, flags))
    const code = readFileSync(scriptPath)
    sizes[label] = { raw: code.byteLength, gzip: gzipSync(code).byteLength }
  }
  report.bundle = { ...sizes, gzipRatio: sizes.toolroute.gzip / sizes.agents.gzip, mcpOnlyGzipRatio: sizes[mcpOnly].gzip / sizes.agents.gzip }
  log('\nbundle (wrangler deploy --dry-run --minify)            raw        gzip')
  log(`  toolroute, weather tool, MCP on (default config) ${kib(sizes.toolroute.raw).padStart(10)} ${kib(sizes.toolroute.gzip).padStart(10)}`)
  log(`  agents createMcpHandler + McpServer, same tool ${kib(sizes.agents.raw).padStart(12)} ${kib(sizes.agents.gzip).padStart(10)}`)
  for (const label of Object.keys(variants)) log(`    toolroute, ${label.padEnd(50)} ${kib(sizes[label].raw).padStart(10)} ${kib(sizes[label].gzip).padStart(10)}   ${two(sizes[label].gzip / sizes.agents.gzip)}× agents`)
  log(`  toolroute ÷ agents, gzip: ${two(report.bundle.mcpOnlyGzipRatio)}× like for like (MCP-only config), ${two(report.bundle.gzipRatio)}× by default (target ≤ 1.2×)`)
  log(`  toolroute carries (raw): ${Object.entries(sizes.toolroute.carried).map(([piece, bytes]) => `${piece} ${kib(bytes)}`).join(' · ')}`)
  log('  raw bytes in the output by package (toolroute | agents):')
  const owners = [...new Set([...Object.keys(sizes.toolroute.owners), ...Object.keys(sizes.agents.owners)])].sort(
    (a, b) => (sizes.toolroute.owners[b] ?? 0) + (sizes.agents.owners[b] ?? 0) - (sizes.toolroute.owners[a] ?? 0) - (sizes.agents.owners[a] ?? 0),
  )
  for (const owner of owners) log(`    ${owner.padEnd(40)} ${kib(sizes.toolroute.owners[owner] ?? 0).padStart(10)} ${kib(sizes.agents.owners[owner] ?? 0).padStart(10)}`)
}

// --- mcp on workerd ---------------------------------------------------------------------------------
const mcpBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'weather-tool',
    arguments: { location: 'Lisbon' },
    _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
  },
})
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'weather-tool' }
/** The call at `url`: its status and whether it answered the tool's output (both Workers must, before anything is measured). */
async function mcpCall(url) {
  const response = await fetch(url, { method: 'POST', headers: mcpHeaders, body: mcpBody })
  const text = await response.text()
  return { ok: response.status === 200 && text.includes('"structuredContent":{"location":"Lisbon","temperatureCelsius":21,"conditions":"sunny"}'), text: `${response.status} ${text}` }
}

if (parts.includes('mcp')) {
  const { Miniflare, convertV4MiniflareOptions } = await import('miniflare')
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler')
  const { toolroute, agents } = bundleWorkers()
  const direct = [{ host: '127.0.0.1', port: 0 }]
  const optionsOf = (name, { config, outdir, scriptPath }) => {
    const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions
    return { ...workerOptions, name, rootPath: outdir, modules: true, scriptPath, unsafeDirectSockets: direct }
  }
  const miniflare = new Miniflare(convertV4MiniflareOptions({ cf: false, workers: [optionsOf('toolroute', toolroute), optionsOf('agents', agents)] }))
  await miniflare.ready
  const contenders = {}
  for (const name of ['toolroute', 'agents']) contenders[name] = { url: `${String(await miniflare.unsafeGetDirectURL(name)).replace(/\/$/, '')}/mcp`, headers: mcpHeaders, body: mcpBody }
  for (const [name, { url }] of Object.entries(contenders)) {
    const { ok, text } = await mcpCall(url)
    if (!ok) throw new Error(`${name} /mcp: ${text}`)
  }
  const workerd = workerdCpuNs()
  log(`\nload: autocannon, ${connections} connections, ${seconds} s a sample, ${rounds} rounds (order alternated)`)
  const samples = await alternate(contenders, () => workerd?.())
  await miniflare.dispose()
  report.mcp = { samples, toolrouteOverAgents: ratiosOf(samples, 'toolroute', 'agents') }
  printTable('MCP 2026-07-28 tools/call on workerd (deploy bundles, Miniflare, direct sockets)', samples, { 'toolroute ÷ agents': report.mcp.toolrouteOverAgents })
}

// --- mcp under wrangler dev ------------------------------------------------------------------------
/** A port nothing listens on now, on loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** The pids of `pid` and of everything below it (wrangler's workerd, esbuild), from /proc. */
function processTree(pid) {
  const parents = new Map()
  for (const entry of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      parents.set(Number(entry), Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]))
    } catch {} // a process that ended while we looked
  }
  const tree = [pid]
  for (let index = 0; index < tree.length; index++) for (const [child, parent] of parents) if (parent === tree[index]) tree.push(child)
  return tree
}
const treeCpuNs = (pid) => (existsSync('/proc/self/task') ? processTree(pid).reduce((sum, each) => sum + (processCpuNs(each) ?? 0), 0) : undefined)
/** The CPU time of the workerd below `pid` that runs the Worker itself (the one with an inspector); the other serves wrangler's dev proxy. */
function workerCpuNs(pid) {
  if (!existsSync('/proc/self/task')) return undefined
  const worker = processTree(pid).find((each) => {
    try {
      return readFileSync(`/proc/${each}/cmdline`, 'utf8').includes('--inspector-addr')
    } catch {
      return false
    }
  })
  return worker === undefined ? undefined : processCpuNs(worker)
}

// Every `wrangler dev` started here is a process group of its own (wrangler, its workerd): stopped as a group, also when this process ends early.
const devGroups = new Set()
const killGroup = (pid, signal) => {
  try {
    process.kill(-pid, signal)
  } catch {} // already gone
}
process.once('exit', () => devGroups.forEach((pid) => killGroup(pid, 'SIGKILL')))
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130))

/**
 * `wrangler dev` of the project at `config`, local (no remote bindings, no network), on a free loopback port;
 * resolves once its `/mcp` answers the tool's output.
 */
async function wranglerDev(name, config) {
  const [port, inspectorPort] = [await freePort(), await freePort()]
  const flags = ['dev', '--config', config, '--local', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort), '--show-interactive-dev-session=false', '--log-level', 'warn']
  // WRANGLER_COMMAND unset: wrangler dev sets its own; the project is already built (toolroute build --deploy) and has no [build] hook.
  const child = spawn(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), ...flags], { cwd: dirname(config), env: { ...wranglerEnv, WRANGLER_COMMAND: undefined }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  devGroups.add(child.pid)
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}/mcp`
  const server = { name, child, url }
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null) throw new Error(`wrangler dev of ${name} exited with ${child.exitCode}:\n${output}`)
    const answer = await mcpCall(url).catch(() => undefined)
    if (answer?.ok) return server
    if (Date.now() - started > 90_000) {
      await stopWranglerDev(server)
      throw new Error(`wrangler dev of ${name} did not answer in 90 s: ${answer?.text ?? 'no connection'}\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** SIGTERM to the group, SIGKILL after 5 s; resolves when wrangler has exited and nothing of its group is left. */
async function stopWranglerDev({ child }) {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve))
  killGroup(child.pid, 'SIGTERM')
  const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
  for (let wait = 0; wait < 50 && processTree(child.pid).length > 1; wait++) await new Promise((resolve) => setTimeout(resolve, 100))
  killGroup(child.pid, 'SIGKILL') // a workerd that outlived wrangler
  devGroups.delete(child.pid)
}

if (parts.includes('mcp-wrangler')) {
  // The same two projects as `mcp`, served as a user runs them locally: each by its own `wrangler dev` (which bundles
  // it itself, serves it behind its dev proxy, and watches the files); both running, loaded one at a time.
  // Beside them, toolroute built as a user's `wrangler dev` builds it ([build] runs `toolroute build`: the playground page, loopback Hosts only).
  const { toolroute, agents } = bundleWorkers()
  const projects = { toolroute: toolroute.config, 'toolroute (dev build)': toolrouteProject('toolroute-dev', undefined, { deploy: false }), agents: agents.config }
  const devServers = []
  try {
    for (const [name, config] of Object.entries(projects)) devServers.push(await wranglerDev(name, config))
    const contenders = Object.fromEntries(devServers.map((server) => [server.name, { url: server.url, headers: mcpHeaders, body: mcpBody, server }]))
    log(`\nload: autocannon, ${connections} connections, ${seconds} s a sample, ${rounds} rounds (order alternated); each Worker its own wrangler dev`)
    const pidOf = (name) => contenders[name].server.child.pid
    const samples = await alternate(contenders, (name) => treeCpuNs(pidOf(name)), (name) => workerCpuNs(pidOf(name)))
    // The same CPU ratio counting only the workerd that runs the Worker (not wrangler, nor its dev proxy's workerd).
    const workerOnly = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, list.map((sample) => ({ ...sample, cpuUs: sample.partCpuUs }))]))
    report.mcpWranglerDev = {
      samples,
      toolrouteOverAgents: ratiosOf(samples, 'toolroute', 'agents'),
      devBuildOverAgents: ratiosOf(samples, 'toolroute (dev build)', 'agents'),
      workerOnly: { toolrouteOverAgents: ratiosOf(workerOnly, 'toolroute', 'agents'), devBuildOverAgents: ratiosOf(workerOnly, 'toolroute (dev build)', 'agents') },
    }
    printTable('MCP 2026-07-28 tools/call under wrangler dev (local; CPU: all of wrangler dev, its two workerd and wrangler)', samples, {
      'toolroute ÷ agents': report.mcpWranglerDev.toolrouteOverAgents,
      'toolroute (dev build) ÷ agents': report.mcpWranglerDev.devBuildOverAgents,
    })
    if (samples.agents[0].partCpuUs !== undefined) {
      log(`  the Worker's own workerd alone (the rest is wrangler's dev proxy), µs a request: ${Object.keys(samples).map((name) => `${name} ${median(samples[name].map((sample) => sample.partCpuUs)).toFixed(1)}`).join(', ')}`)
      for (const [label, { cpu, cpuInterval }] of Object.entries(report.mcpWranglerDev.workerOnly)) log(`  ${label === 'toolrouteOverAgents' ? 'toolroute' : 'toolroute (dev build)'} ÷ agents there: CPU a request ${two(cpu)}× ${interval(cpuInterval)}`)
    }
  } finally {
    await Promise.all(devServers.map(stopWranglerDev))
  }
}

// --- node ----------------------------------------------------------------------------------------
/**
 * peers/toolroute-server.ts bundled for Node (minified, as a deploy would), `@hono/node-server` left to
 * bench/node_modules as Mastra's server uses it; `from`: another checkout's src/ (`--against`).
 */
async function toolrouteServerScript(from = root) {
  const outfile = join(here, `.build/peers/toolroute-server${from === root ? '' : '-against'}.mjs`)
  await build({
    entryPoints: [join(here, 'peers/toolroute-server.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    external: ['@hono/node-server'],
    alias: { toolroute: join(from, 'src/index.ts'), 'toolroute/server': join(from, 'src/server.ts') },
    nodePaths: [join(root, 'node_modules')], // a `git archive` checkout has none of its own
    outfile,
    logLevel: 'warning',
  })
  return outfile
}
const servers = { toolroute: undefined, mastra: join(here, 'peers/mastra-server.mjs') }

/** Starts a server script; resolves when it prints its port, with the time that took. */
function startServer(script) {
  const started = performance.now()
  const child = spawn(process.execPath, [script], { cwd: here, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const port = out.match(/port (\d+)/)?.[1]
      if (port) resolve({ child, url: `http://127.0.0.1:${port}`, started })
    })
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
  })
}
const stopServer = ({ child }) => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))))

const callBody = JSON.stringify({ location: 'Lisbon' })
const mastraBody = JSON.stringify({ data: { location: 'Lisbon' } })
const json = { 'content-type': 'application/json' }

if (parts.includes('node')) {
  servers.toolroute = await toolrouteServerScript()
  const toolroute = await startServer(servers.toolroute)
  const mastra = await startServer(servers.mastra)
  const before = against && (await startServer(await toolrouteServerScript(against)))
  const contenders = {
    ...(before ? { 'before (Mastra route)': { url: `${before.url}/api/tools/weather-tool/execute`, headers: json, body: mastraBody, server: before } } : {}),
    'toolroute (POST /tools/:id)': { url: `${toolroute.url}/tools/weather-tool`, headers: json, body: callBody, server: toolroute },
    'toolroute (Mastra route)': { url: `${toolroute.url}/api/tools/weather-tool/execute`, headers: json, body: mastraBody, server: toolroute },
    'mastra (@mastra/hono)': { url: `${mastra.url}/api/tools/weather-tool/execute`, headers: json, body: mastraBody, server: mastra },
  }
  // The Mastra route answers as Mastra's server does, byte for byte.
  const answers = {}
  for (const [name, { url, body }] of Object.entries(contenders)) {
    const response = await fetch(url, { method: 'POST', headers: json, body })
    if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`)
    answers[name] = await response.text()
  }
  if (answers['toolroute (Mastra route)'] !== answers['mastra (@mastra/hono)']) throw new Error(`the Mastra answers differ:\n${answers['toolroute (Mastra route)']}\n${answers['mastra (@mastra/hono)']}`)
  log(`\nload: autocannon, ${connections} connections, ${seconds} s a sample, ${rounds} rounds (order rotated); each server its own Node process`)
  const samples = await alternate(contenders, (name) => processCpuNs(contenders[name].server.child.pid))
  await Promise.all([stopServer(toolroute), stopServer(mastra), ...(before ? [stopServer(before)] : [])])
  const baseline = 'mastra (@mastra/hono)'
  report.node = {
    samples,
    nativeOverMastra: ratiosOf(samples, 'toolroute (POST /tools/:id)', baseline),
    mastraRouteOverMastra: ratiosOf(samples, 'toolroute (Mastra route)', baseline),
    ...(before ? { beforeOverMastra: ratiosOf(samples, 'before (Mastra route)', baseline) } : {}),
  }
  printTable(`HTTP tool call on Node ${process.version} (@hono/node-server)`, samples, {
    'toolroute own route ÷ Mastra': report.node.nativeOverMastra,
    'toolroute Mastra route ÷ Mastra (target ≥ 1.6×)': report.node.mastraRouteOverMastra,
    ...(before ? { [`${against}'s Mastra route ÷ Mastra`]: report.node.beforeOverMastra } : {}),
  })
}

// --- cold start ------------------------------------------------------------------------------------
/** Spawn → the first 200 of a call; the peak RSS (VmHWM) at that moment. */
async function coldStart(script, url, body) {
  const server = await startServer(script)
  for (;;) {
    const response = await fetch(`${server.url}${url}`, { method: 'POST', headers: json, body }).catch(() => undefined)
    if (response?.status === 200) {
      await response.text()
      break
    }
  }
  const ms = performance.now() - server.started
  const peakKiB = Number(readFileSync(`/proc/${server.child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)?.[1])
  await stopServer(server)
  return { ms, peakKiB }
}

if (parts.includes('cold')) {
  servers.toolroute ??= await toolrouteServerScript()
  const runs = { toolroute: [], mastra: [] }
  await coldStart(servers.toolroute, '/tools/weather-tool', callBody) // the disk cache warm for both
  await coldStart(servers.mastra, '/api/tools/weather-tool/execute', mastraBody)
  for (let round = 0; round < coldRuns; round++) {
    for (const name of round % 2 === 0 ? ['toolroute', 'mastra'] : ['mastra', 'toolroute']) {
      runs[name].push(name === 'toolroute' ? await coldStart(servers.toolroute, '/tools/weather-tool', callBody) : await coldStart(servers.mastra, '/api/tools/weather-tool/execute', mastraBody))
    }
  }
  const timeRatios = runs.toolroute.map((run, index) => run.ms / runs.mastra[index].ms)
  const rssRatios = runs.toolroute.map((run, index) => run.peakKiB / runs.mastra[index].peakKiB)
  report.cold = { runs, time: median(timeRatios), timeInterval: medianInterval(timeRatios), rss: median(rssRatios), rssInterval: medianInterval(rssRatios) }
  log(`\nNode cold start (spawn → first 200 of a call; ${coldRuns} runs each, alternated)`)
  for (const name of ['toolroute', 'mastra']) {
    log(`  ${name.padEnd(10)} ${median(runs[name].map((run) => run.ms)).toFixed(0).padStart(6)} ms   peak RSS ${(median(runs[name].map((run) => run.peakKiB)) / 1024).toFixed(1)} MiB`)
  }
  log(`  toolroute ÷ mastra: time ${two(report.cold.time)}× ${interval(report.cold.timeInterval)}, peak RSS ${two(report.cold.rss)}× ${interval(report.cold.rssInterval)}`)
}

const file = saveResult('peers', report)
if (asJson) console.log(JSON.stringify(report, null, 2))
else log(`\nwrote ${file}`)
