// The JSON call's cost with tracing on (SPEC §17), in one Node process: `POST /tools/weather-tool`
// through `app.request` on two apps of the same bundle, one without `tracing`, one with it and an
// OTLP/HTTP endpoint on loopback (a real HTTP server answering 200), spans exported in batches.
//
// node bench/run.mjs tracing [--rounds 15] [--sample-ms 150]
import { build } from 'esbuild'
import { createServer } from 'node:http'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compare } from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const args = process.argv.slice(2)
const option = (flag, fallback) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback)
const rounds = option('--rounds', 15)
const sampleMs = option('--sample-ms', 150)

mkdirSync(join(here, '.build'), { recursive: true })
const outfile = join(here, '.build', 'tracing.mjs')
await build({
  stdin: { contents: `export { createToolApp } from './src/server.ts'\nexport { weatherTool } from './tools/weather-tool.ts'`, resolveDir: root, loader: 'ts' },
  bundle: true, format: 'esm', platform: 'node', target: 'es2022', conditions: ['workerd', 'worker', 'import'], minify: process.env.BENCH_MINIFY !== '0',
  alias: { toolroute: join(root, 'src/index.ts') }, outfile, logLevel: 'warning',
})
const { createToolApp, weatherTool } = await import(`file://${outfile}`)

let exported = 0
const collector = createServer((request, response) => request.on('data', () => {}).on('end', () => (exported++, response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))))
await new Promise((resolve) => collector.listen(0, '127.0.0.1', resolve))
const endpoint = `http://127.0.0.1:${collector.address().port}`

const apps = { untraced: createToolApp({ tools: [weatherTool], mcp: false }), traced: createToolApp({ tools: [weatherTool], mcp: false, tracing: { endpoint } }) }
const body = JSON.stringify({ location: 'Lisbon' })
const call = (app) => async () => {
  const response = await app.request('/tools/weather-tool', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  if (response.status !== 200) throw new Error(`status ${response.status}`)
  await response.text()
  // A turn of the event loop, as a server's next request would give: the export's socket I/O runs in it, and counts.
  await new Promise((resolve) => setImmediate(resolve))
}
const results = await compare({ untraced: call(apps.untraced), traced: call(apps.traced) }, { rounds, sampleMs, baseline: 'untraced' })
console.log(`Node ${process.version}, ${rounds} rounds × ~${sampleMs} ms per contender, interleaved; medians; ${exported} OTLP requests received`)
for (const [name, { opsPerSecond, ratio }] of Object.entries(results)) console.log(`${name.padEnd(9)} ${(1e6 / opsPerSecond).toFixed(1).padStart(7)} µs/call  ${ratio.toFixed(2)}×`)
collector.close()
