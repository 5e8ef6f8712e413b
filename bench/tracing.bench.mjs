// The JSON call's cost with tracing on (SPEC §17), in one Node process: `POST /tools/weather-tool`
// through `app.request` on two apps of the same bundle, one without `tracing`, one with it and an
// OTLP/HTTP endpoint on loopback (a real HTTP server answering 200), spans exported in batches.
// `--workerd`: the same call over HTTP to a Worker on workerd (Miniflare), bench/tracing/worker.ts served
// twice, with and without `tracing`, each its own isolate; the traced one flushes each request's spans
// with `waitUntil` (one OTLP POST a request), as deployed.
//
// node bench/run.mjs tracing [--workerd] [--rounds 15] [--sample-ms 150]
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { bundleToolroute } from './build-bundle.mjs'
import { commandLine, compare, loopbackServer, medianInterval, workerdCpuNs } from './measure.mjs'

const { args, option } = commandLine()
const rounds = option('--rounds', 15)
const sampleMs = option('--sample-ms', 150)
const workerd = args.includes('--workerd')

let exported = 0
const { server: collector, url: endpoint } = workerd ? await collectorProcess() : await loopbackServer((request, response) => request.on('data', () => {}).on('end', () => (exported++, response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))))

const { apps, dispose } = workerd ? await onWorkerd() : await inNode()
// On workerd, its CPU time too (all its threads, from /proc), given to the contender whose calls ran since the last switch.
const cpuNs = workerd ? workerdCpuNs() : undefined
const cpu = { untraced: { ns: 0, calls: 0 }, traced: { ns: 0, calls: 0 } }
let last = { name: undefined, at: 0 }
const counted = (name, fn) => async () => {
  if (cpuNs && last.name !== name) last = (last.name && (cpu[last.name].ns += cpuNs() - last.at), { name, at: cpuNs() })
  cpu[name].calls++
  return fn()
}
const body = JSON.stringify({ location: 'Lisbon' })
const call = (app) => async () => {
  const response = await app.request('http://bench/tools/weather-tool', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  if (response.status !== 200) throw new Error(`status ${response.status}`)
  await response.text()
  // A turn of the event loop, as a server's next request would give: the export's socket I/O runs in it, and counts.
  await new Promise((resolve) => setImmediate(resolve))
}
const results = await compare({ untraced: counted('untraced', call(apps.untraced)), traced: counted('traced', call(apps.traced)) }, { rounds, sampleMs, baseline: 'untraced' })
console.log(`${workerd ? 'workerd (Miniflare), over HTTP' : `Node ${process.version}`}, ${rounds} rounds × ~${sampleMs} ms per contender, interleaved; medians${workerd ? '' : `; ${exported} OTLP requests received`}`)
for (const [name, { opsPerSecond, ratio, ratios }] of Object.entries(results)) {
  const [low, high] = medianInterval(ratios)
  console.log(`${name.padEnd(9)} ${(1e6 / opsPerSecond).toFixed(1).padStart(7)} µs/call  ${ratio.toFixed(2)}× [95%: ${low.toFixed(2)}, ${high.toFixed(2)}]`)
}
if (cpuNs) console.log(`workerd CPU time a call (all calls, warm-up included): untraced ${cpuPerCall('untraced')}, traced ${cpuPerCall('traced')} µs`)
if (workerd) exported = await (await fetch(`${endpoint}/count`)).json()
if (workerd) console.log(`${exported} OTLP requests received`)
await dispose()
collector.close()

function cpuPerCall(name) {
  return (cpu[name].ns / 1000 / cpu[name].calls).toFixed(1)
}

/** On workerd, the endpoint runs in a process of its own (not on this loop, which times the calls); `GET /count` answers how many it received. */
async function collectorProcess() {
  const source = `let n = 0; require('node:http').createServer((q, r) => q.method === 'GET' ? r.end(String(n)) : q.on('data', () => {}).on('end', () => (n++, r.writeHead(200, { 'content-type': 'application/json' }).end('{}')))).listen(0, '127.0.0.1', function () { console.log(this.address().port) })`
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [port] = await once(child.stdout, 'data')
  return { server: { close: () => child.kill() }, url: `http://127.0.0.1:${String(port).trim()}` }
}

/** The two apps in this process, of one bundle. */
async function inNode() {
  const { createToolApp, weatherTool } = await import(await bundleToolroute('tracing', `export { createToolApp } from './src/server.ts'\nexport { weatherTool } from './tools/weather-tool.ts'`, { platform: 'node' }))
  const apps = { untraced: createToolApp({ tools: [weatherTool], mcp: false }), traced: createToolApp({ tools: [weatherTool], mcp: false, tracing: { endpoint } }) }
  return { apps, dispose: async () => {} }
}

/** The Worker of bench/tracing/ as `wrangler deploy` bundles it, served twice by one workerd: `traced` with the endpoint in its vars. */
async function onWorkerd() {
  const { Miniflare, convertV4MiniflareOptions } = await import('miniflare')
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler')
  const { wranglerBundle } = await import('./wrangler-bundle.mjs')
  const config = fileURLToPath(new URL('./tracing/wrangler.toml', import.meta.url))
  const { scriptPath, outdir } = wranglerBundle('tracing', config)
  const { modulesRules: _modulesRules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions
  const worker = (name, bindings) => ({ ...workerOptions, name, rootPath: outdir, modules: true, scriptPath, bindings })
  const miniflare = new Miniflare(convertV4MiniflareOptions({ cf: false, workers: [worker('untraced', { APP: 'untraced' }), worker('traced', { APP: 'traced', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })] }))
  await miniflare.ready
  const served = async (name) => {
    const fetcher = await miniflare.getWorker(name)
    return { request: (url, init) => fetcher.fetch(url, init) }
  }
  return { apps: { untraced: await served('untraced'), traced: await served('traced') }, dispose: () => miniflare.dispose() }
}
