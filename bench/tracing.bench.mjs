// The JSON call's cost with tracing on (SPEC §17), in one Node process: `POST /tools/weather-tool`
// through `app.request` on two apps of the same bundle, one without `tracing`, one with it and an
// OTLP/HTTP endpoint on loopback (a real HTTP server answering 200), spans exported in batches.
//
// node bench/run.mjs tracing [--rounds 15] [--sample-ms 150]
import { bundleToolroute } from './build-bundle.mjs'
import { commandLine, compare, loopbackServer } from './measure.mjs'

const { option } = commandLine()
const rounds = option('--rounds', 15)
const sampleMs = option('--sample-ms', 150)

const { createToolApp, weatherTool } = await import(await bundleToolroute('tracing', `export { createToolApp } from './src/server.ts'\nexport { weatherTool } from './tools/weather-tool.ts'`, { platform: 'node' }))

let exported = 0
const { server: collector, url: endpoint } = await loopbackServer((request, response) => request.on('data', () => {}).on('end', () => (exported++, response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))))

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
