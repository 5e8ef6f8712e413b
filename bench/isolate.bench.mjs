// The JSON call path inside one workerd isolate, without HTTP: bench/isolate/loop-worker.ts calls
// `POST /tools/weather-tool` on the example Worker and on the bare Hono route `--calls` times per
// sample, so sockets, HTTP parsing and the load tool (which share this machine's two cores with
// the Worker in the http benchmark) drop out and what is left is the apps' own work. Samples are
// short and interleaved (order swapped each round); the 25th percentile of each is reported (noise
// on a shared machine only ever adds time), as wall time and, on Linux, as workerd's CPU time.
// `--profile` instead samples toolroute with the V8 inspector and prints self time per module.
// `--against <checkout>` adds another checkout's example Worker as a third contender, both as copies
// that share nothing with the bare route (isolate-against.mjs): what a change saves, per call.
//
// `--scenario mcp` compares a 2026-07-28 `tools/call` at `/mcp` with a bare SDK v2 createMcpHandler
// server calling the same execute (bench/isolate/bare-mcp-worker.ts) instead.
//
// node bench/run.mjs isolate [--rounds 150] [--calls 500] [--scenario json|mcp] [--against <checkout>] [--json]
// node bench/run.mjs isolate --profile [--calls 20000] [--app toolroute|bare]
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { commandLine, median, medianInterval, saveResult, workerdCpuNs } from './measure.mjs'
import { prepareAgainst } from './isolate-against.mjs'
import { buildTools, wranglerBundle } from './wrangler-bundle.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { args, option, asJson, log } = commandLine()
const profile = args.includes('--profile')
const rounds = Number(option('--rounds', 150))
const calls = Number(option('--calls', profile ? 20000 : 500))

const against = option('--against', undefined)
const scenario = option('--scenario', 'json')
const baseline = scenario === 'mcp' ? 'bare-mcp' : 'bare'
const apps = against ? ['toolroute', 'before', baseline] : ['toolroute', baseline]
log(`bundling (wrangler deploy --dry-run${profile ? ', not minified' : ' --minify'})…`)
buildTools()
const config = against ? prepareAgainst(against) : join(here, 'isolate/wrangler.toml')
const { scriptPath, outdir } = wranglerBundle('isolate', config, { minify: !profile })
// modulesRules describes unbundled sources (the scripts here are bundled); Miniflare 5 refuses to convert it.
const { modulesRules: _modulesRules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions
const inspectorPort = 9300 + Math.floor(Math.random() * 600)
const miniflare = new Miniflare(convertV4MiniflareOptions({ cf: false, ...(profile ? { inspectorPort } : {}), workers: [{ ...workerOptions, name: 'isolate', rootPath: outdir, modules: true, scriptPath }] }))

async function sample(app, count) {
  const response = await miniflare.dispatchFetch(`http://bench/?app=${app}&calls=${count}&scenario=${scenario}`)
  if (response.status !== 200) throw new Error(`${app}: ${response.status} ${await response.text()}`)
  await response.text()
}

try {
  await miniflare.ready
  for (const app of apps) for (let warm = 0; warm < 10; warm++) await sample(app, 500)
  if (profile) await profileApp(option('--app', 'toolroute'))
  else await compare()
} finally {
  await miniflare.dispose()
}

async function compare() {
  const cpuNs = workerdCpuNs()
  const samples = Object.fromEntries(apps.map((app) => [app, { wall: [], cpu: [] }]))
  for (let round = 0; round < rounds; round++) {
    // Each contender first, then second… in turn (the order rotated each round).
    for (const app of apps.map((_, index) => apps[(index + round) % apps.length])) {
      const cpuBefore = cpuNs?.()
      const started = performance.now()
      await sample(app, calls)
      samples[app].wall.push(((performance.now() - started) * 1000) / calls)
      if (cpuNs) samples[app].cpu.push((cpuNs() - cpuBefore) / 1000 / calls)
    }
  }
  const p25 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 4)]
  const report = { rounds, calls, against, ...Object.fromEntries(apps.map((app) => [app, {}])) }
  for (const app of apps) {
    report[app].wallUs = p25(samples[app].wall)
    if (cpuNs) report[app].cpuUs = p25(samples[app].cpu)
  }
  report.ratioWall = report[baseline].wallUs / report.toolroute.wallUs
  if (cpuNs) report.ratioCpu = report[baseline].cpuUs / report.toolroute.cpuUs
  // With --against: this ÷ before per round (the two share each round), the median and its 95% interval.
  const perRound = (key) => samples.toolroute[key].map((value, index) => value / samples.before[key][index])
  if (against) for (const key of cpuNs ? ['wall', 'cpu'] : ['wall']) report[`${key}ThisOverBefore`] = { median: median(perRound(key)), interval: medianInterval(perRound(key)) }
  saveResult(scenario === 'mcp' ? 'isolate-mcp' : 'isolate', { ...report, samples })
  if (asJson) return console.log(JSON.stringify(report, null, 2))
  const row = (label, key) => `  ${label.padEnd(22)} ${report.toolroute[key].toFixed(1).padStart(9)} ${report[baseline][key].toFixed(1).padStart(9)}   ${(report.toolroute[key] - report[baseline][key]).toFixed(1).padStart(6)} µs   ${(report[baseline][key] / report.toolroute[key]).toFixed(2)}×`
  const what = scenario === 'mcp' ? 'a 2026-07-28 tools/call of weather-tool at /mcp (bare: SDK v2 createMcpHandler)' : 'POST /tools/weather-tool'
  console.log(`\n${what} in one isolate (${rounds} rounds × ${calls} calls, 25th percentile)`)
  console.log('  per call               toolroute      bare    toolroute − bare   bare ÷ toolroute')
  console.log(row('wall time', 'wallUs'))
  if (cpuNs) console.log(row('workerd CPU time', 'cpuUs'))
  if (!against) return
  const ratio = ({ median, interval }) => `${median.toFixed(3)}× [${interval.map((value) => value.toFixed(3)).join(', ')}]`
  const versus = (key) => `  ${key === 'wallUs' ? 'wall time' : 'workerd CPU time'}: this ${report.toolroute[key].toFixed(1)}, before ${report.before[key].toFixed(1)} µs a call (this − before ${(report.toolroute[key] - report.before[key]).toFixed(1)} µs); bare ÷ before ${(report[baseline][key] / report.before[key]).toFixed(2)}×; this ÷ before per round ${ratio(report[key === 'wallUs' ? 'wallThisOverBefore' : 'cpuThisOverBefore'])}`
  console.log(`\nagainst ${against} (both copies of their checkout, in the same isolate):`)
  console.log(versus('wallUs'))
  if (cpuNs) console.log(versus('cpuUs'))
}

// Samples one app with the V8 inspector (Profiler domain over the inspector's WebSocket) and
// prints self time per call by module of the bundle (the not-minified bundle names each module).
async function profileApp(app) {
  const { default: WebSocket } = await import('ws')
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()
  const socket = new WebSocket(targets.find((target) => target.title?.includes('isolate'))?.webSocketDebuggerUrl ?? targets[0].webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let nextId = 0
  const pending = new Map()
  socket.on('message', (message) => {
    const { id, result } = JSON.parse(message)
    pending.get(id)?.(result)
  })
  const send = (method, params = {}) => new Promise((resolve) => (pending.set(++nextId, resolve), socket.send(JSON.stringify({ id: nextId, method, params }))))
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: 50 })
  await send('Profiler.start')
  await sample(app, calls)
  const { profile: cpuProfile } = await send('Profiler.stop')
  socket.close()
  const saved = saveResult(`isolate-${app}`, JSON.stringify(cpuProfile), 'cpuprofile')

  const lines = readFileSync(scriptPath, 'utf8').split('\n')
  const modules = []
  lines.forEach((line, index) => {
    const match = line.match(/^\/\/ (\S+\.(?:ts|js|mjs))$/)
    if (match) modules.push([index, match[1].replace(/^(\.\.\/)*node_modules\//, '').replace(/^(\.\.\/)+/, '')])
  })
  const moduleAt = (line) => modules.findLast(([start]) => start <= line)?.[1] ?? '(bundle)'
  const nodes = new Map(cpuProfile.nodes.map((node) => [node.id, node]))
  const selfTime = new Map()
  cpuProfile.samples.forEach((id, index) => {
    const { callFrame } = nodes.get(id)
    const key = callFrame.url ? moduleAt(callFrame.lineNumber) : `(${callFrame.functionName || 'native'})`.replace('((', '(').replace('))', ')')
    selfTime.set(key, (selfTime.get(key) ?? 0) + (cpuProfile.timeDeltas[index] ?? 0))
  })
  console.log(`\nself time per call of ${app}, by module (${calls} calls, V8 sampling profiler; includes the loop's own Request and Response)`)
  for (const [key, micros] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${(micros / calls).toFixed(2).padStart(7)} µs  ${key}`)
  console.log(`\nprofile: ${saved} (open in Chrome DevTools › Performance; bundle: ${scriptPath})`)
}
