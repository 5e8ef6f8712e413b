// HTTP on workerd: POST /tools/weather-tool through toolroute (the example Worker, tools/ as
// deployed) against a bare Hono route doing the same Zod validation and returning the same JSON
// (bench/http/bare-worker.ts), JSON and SSE. Both are bundled by `wrangler deploy --dry-run`
// and served by one Miniflare with a direct socket to each Worker (no proxy in front), loaded
// by autocannon from this process over loopback, interleaved in rounds (order swapped every
// round) so drift hits both alike. Reports medians and toolroute ÷ bare ratios of requests a
// second and of workerd's CPU time a request (read from /proc around each sample: throughput moves
// with whatever else this shared machine runs, the CPU a request costs much less); then the size
// of the example Worker's bundle and toolroute's own share of it.
//
// `--app one-tool` serves the weather tool alone (the bare route's one tool, a project of its own built
// by `toolroute build --deploy` with the default config) instead of the example Worker of all of tools/.
//
// node bench/run.mjs http [--rounds 5] [--seconds 3] [--connections 10] [--scenarios json,sse] [--app example|one-tool] [--no-minify] [--json]
import autocannon from 'autocannon'
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { median, medianInterval, saveResult, workerdCpuNs } from './measure.mjs'
import { wranglerBundle, wranglerEnv } from './wrangler-bundle.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const args = process.argv.slice(2)
const option = (flag, fallback) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback)
const rounds = option('--rounds', 5)
const seconds = option('--seconds', 3)
const connections = option('--connections', 10)
const minify = !args.includes('--no-minify')
const asJson = args.includes('--json')
const only = args.includes('--scenarios') ? args[args.indexOf('--scenarios') + 1].split(',') : ['json', 'sse']
const log = (...parts) => (asJson ? undefined : console.log(...parts))

const app = args.includes('--app') ? args[args.indexOf('--app') + 1] : 'example'
if (app !== 'example' && app !== 'one-tool') throw new Error(`--app example|one-tool, got ${app}`)

/** A project serving tools/weather-tool.ts alone, with the example Worker's bindings, built for deployment. */
function oneToolProject() {
  // Outside bench/, so that its tool resolves the same Zod as toolroute and the bare route (bench/ has its own).
  const dir = join(root, '.toolroute-test-tmp/bench-http-one-tool')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'tools'), { recursive: true })
  copyFileSync(join(root, 'tools/weather-tool.ts'), join(dir, 'tools/weather-tool.ts'))
  const example = readFileSync(join(root, 'wrangler.toml'), 'utf8')
  const toml = example
    .replace(/^main = .*$/m, 'main = ".toolroute/worker.ts"')
    .replace(/^\[build\][\s\S]*?(?=^\[)/m, '')
    .replace(/^"(toolroute[^"]*)" = "\.\/(.*)"$/gm, (_, name, path) => `"${name}" = "${join(root, path)}"`)
  writeFileSync(join(dir, 'wrangler.toml'), toml)
  execFileSync(process.execPath, ['cli/toolroute.mjs', 'build', '--deploy', dir], { cwd: root, env: wranglerEnv, stdio: 'pipe' })
  return join(dir, 'wrangler.toml')
}

// --- bundles, as `wrangler deploy` makes them ---------------------------------------------
const toolrouteConfig = app === 'one-tool' ? oneToolProject() : join(root, 'wrangler.toml')
const bareConfig = join(here, 'http/wrangler.bare.toml')
log(`bundling (wrangler deploy --dry-run${minify ? ' --minify' : ''})…`)
const toolrouteBundle = wranglerBundle('http/toolroute', toolrouteConfig, { minify })
const bareBundle = wranglerBundle('http/bare', bareConfig, { minify })

// --- sizes ---------------------------------------------------------------------------------
function sizeOf({ outdir, scriptPath }) {
  const code = readFileSync(scriptPath)
  const metaFile = readdirSync(outdir).find((file) => file.endsWith('.json') && file.includes('meta'))
  const owners = {}
  if (metaFile) {
    const meta = JSON.parse(readFileSync(join(outdir, metaFile), 'utf8'))
    const output = Object.entries(meta.outputs).find(([file]) => file.endsWith('.js'))[1]
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)
      const owner = match ? match[1] : /(^|\/)src\//.test(path) ? 'toolroute (src/)' : /(^|\/)tools\//.test(path) ? 'tools/' : 'other'
      owners[owner] = (owners[owner] ?? 0) + bytesInOutput
    }
  }
  return { raw: code.byteLength, gzip: gzipSync(code).byteLength, owners }
}
const otherMinify = wranglerBundle('http/toolroute-alt', toolrouteConfig, { minify: !minify })
const sizes = {
  toolroute: { [minify ? 'minified' : 'plain']: sizeOf(toolrouteBundle), [minify ? 'plain' : 'minified']: sizeOf(otherMinify) },
  bare: sizeOf(bareBundle),
}

// --- servers ---------------------------------------------------------------------------------
// modulesRules describes unbundled sources (the scripts here are bundled); Miniflare 5 refuses to convert it.
const { modulesRules: _modulesRules, ...workerOptions } = unstable_getMiniflareWorkerOptions(toolrouteConfig).workerOptions
const direct = [{ host: '127.0.0.1', port: 0 }]
const miniflare = new Miniflare(convertV4MiniflareOptions({
  cf: false,
  workers: [
    { ...workerOptions, name: 'toolroute', rootPath: toolrouteBundle.outdir, modules: true, scriptPath: toolrouteBundle.scriptPath, unsafeDirectSockets: direct },
    {
      name: 'bare',
      rootPath: bareBundle.outdir,
      modules: true,
      scriptPath: bareBundle.scriptPath,
      compatibilityDate: workerOptions.compatibilityDate,
      compatibilityFlags: workerOptions.compatibilityFlags,
      unsafeDirectSockets: direct,
    },
  ],
}))
await miniflare.ready
const targets = {
  toolroute: String(await miniflare.unsafeGetDirectURL('toolroute')).replace(/\/$/, ''),
  bare: String(await miniflare.unsafeGetDirectURL('bare')).replace(/\/$/, ''),
}

const body = JSON.stringify({ location: 'Lisbon' })
const scenarios = Object.fromEntries(
  Object.entries({
    json: { headers: { 'content-type': 'application/json' } },
    sse: { headers: { 'content-type': 'application/json', accept: 'text/event-stream' } },
  }).filter(([name]) => only.includes(name)),
)

// Both answer the same before anything is measured.
const withoutIds = (text) => text.replace(/(run|call)_[0-9a-f-]{8,}/g, '<id>').replace(/"(runId|toolCallId)":"[^"]+"/g, '"$1":"<id>"')
for (const [scenario, { headers }] of Object.entries(scenarios)) {
  const answers = {}
  for (const [name, url] of Object.entries(targets)) {
    const response = await fetch(`${url}/tools/weather-tool`, { method: 'POST', headers, body })
    if (response.status !== 200) throw new Error(`${name} ${scenario}: status ${response.status}: ${await response.text()}`)
    answers[name] = await response.text()
  }
  if (scenario === 'json' && JSON.stringify(JSON.parse(withoutIds(answers.toolroute))) !== JSON.stringify(JSON.parse(withoutIds(answers.bare)))) {
    throw new Error(`the JSON answers differ:\n${answers.toolroute}\n${answers.bare}`)
  }
  if (scenario === 'sse') {
    const types = (text) => [...text.matchAll(/"type":"([^"]+)"/g)].map((match) => match[1]).join(',')
    if (types(answers.toolroute) !== types(answers.bare) || !answers.toolroute.endsWith('data: [DONE]\n\n')) {
      throw new Error(`the SSE answers differ:\n${answers.toolroute}\n${answers.bare}`)
    }
  }
}

// --- workerd's CPU ----------------------------------------------------------------------------
// The time the one workerd Miniflare started has been on a CPU, read before and after each
// sample (Linux only: elsewhere the CPU columns are left out).
const workerdCpu = workerdCpuNs()

// --- load ------------------------------------------------------------------------------------
function load(url, headers, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${url}/tools/weather-tool`, method: 'POST', headers, body, connections, duration }, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

log(`load: autocannon, ${connections} connections, ${seconds} s per sample, ${rounds} rounds (order swapped each round)`)
const samples = {}
for (const [scenario, { headers }] of Object.entries(scenarios)) {
  // Warm-up long enough for the JIT to settle both Workers (early rounds otherwise favour the smaller one).
  for (const url of Object.values(targets)) await load(url, headers, Math.max(3, seconds))
  samples[scenario] = { toolroute: [], bare: [] }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['toolroute', 'bare'] : ['bare', 'toolroute']
    for (const name of order) {
      const cpuBefore = workerdCpu?.()
      const result = await load(targets[name], scenarios[scenario].headers, seconds)
      const cpuAfter = workerdCpu?.()
      if (result.errors || result.non2xx || result.timeouts) throw new Error(`${name} ${scenario}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`)
      const cpuUs = cpuBefore === undefined ? undefined : (cpuAfter - cpuBefore) / 1000 / result.requests.total
      samples[scenario][name].push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs })
    }
  }
}
await miniflare.dispose()

// --- report ----------------------------------------------------------------------------------
const report = { app, connections, seconds, rounds, minify, scenarios: {}, sizes }
for (const [scenario, byName] of Object.entries(samples)) {
  const ratios = byName.toolroute.map((sample, index) => sample.rps / byName.bare[index].rps)
  const withCpu = workerdCpu !== undefined
  // bare ÷ toolroute CPU a request: above 1 when toolroute costs less, like the throughput ratio.
  const cpuRatios = withCpu ? byName.toolroute.map((sample, index) => byName.bare[index].cpuUs / sample.cpuUs) : undefined
  const summary = (list) => ({ rps: median(list.map((s) => s.rps)), p50: median(list.map((s) => s.p50)), p99: median(list.map((s) => s.p99)), cpuUs: withCpu ? median(list.map((s) => s.cpuUs)) : undefined })
  report.scenarios[scenario] = {
    toolroute: summary(byName.toolroute),
    bare: summary(byName.bare),
    ratio: median(ratios),
    ratioInterval: medianInterval(ratios),
    ratios,
    cpuRatio: withCpu ? median(cpuRatios) : undefined,
    cpuRatioInterval: withCpu ? medianInterval(cpuRatios) : undefined,
    cpuRatios,
  }
}
saveResult('http', report)

if (asJson) {
  console.log(JSON.stringify(report, null, 2))
} else {
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
  const perRound = (values) => values.map((value) => value.toFixed(2)).join(', ')
  console.log('\nPOST /tools/weather-tool      req/s (median)   p50 ms   p99 ms   workerd CPU µs/req   toolroute ÷ bare (median [95% interval]; per round)')
  for (const [scenario, result] of Object.entries(report.scenarios)) {
    for (const name of ['toolroute', 'bare']) {
      const { rps, p50, p99, cpuUs } = result[name]
      const ratio = name === 'toolroute' ? `req/s ${result.ratio.toFixed(2)}× [${perRound(result.ratioInterval)}]   (${perRound(result.ratios)})` : ''
      const cpu = cpuUs === undefined ? '–' : cpuUs.toFixed(1)
      console.log(`  ${`${scenario} ${name}`.padEnd(26)} ${rps.toFixed(0).padStart(10)} ${String(p50).padStart(8)} ${String(p99).padStart(8)} ${cpu.padStart(12)}          ${ratio}`)
    }
    if (result.cpuRatio !== undefined) console.log(`  ${''.padEnd(26)} ${''.padStart(51)}CPU a request, bare ÷ toolroute ${result.cpuRatio.toFixed(2)}× [${perRound(result.cpuRatioInterval)}]   (${perRound(result.cpuRatios)})`)
  }
  console.log('\nbundle (wrangler deploy --dry-run)      raw        gzip')
  for (const [label, size] of [
    ['example Worker, minified', sizes.toolroute.minified],
    ['example Worker, not minified', sizes.toolroute.plain],
    [`bare Hono + Zod${minify ? ', minified' : ''}`, sizes.bare],
  ]) {
    console.log(`  ${label.padEnd(34)} ${kib(size.raw).padStart(10)} ${kib(size.gzip).padStart(10)}`)
  }
  const shares = Object.entries(sizes.toolroute.minified.owners).sort((a, b) => b[1] - a[1])
  console.log(`  share of the minified example Worker: ${shares.slice(0, 8).map(([owner, bytes]) => `${owner} ${kib(bytes)}`).join(', ')}`)
}
