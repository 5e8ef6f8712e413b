// Webhooks (SPEC §16) never delay a call: the same toolroute/server app, in process, with and without
// `webhooks` (one receiver on loopback answering 204), called side by side in interleaved rounds.
// Two calls: an approval tool's first call (the run is opened waiting, so with webhooks a delivery is
// queued as it is stored and sent after the answer), and a plain JSON call (no run: nothing to tell).
// The approval calls' deliveries go out between calls, in the same process. Medians of each round's µs a call, and the with ÷ without ratio per round.
//
// node bench/run.mjs webhooks [--rounds 15] [--calls 300]
import { bundleToolroute } from './build-bundle.mjs'
import { commandLine, compare, loopbackServer, median } from './measure.mjs'

const { option } = commandLine()
const rounds = option('--rounds', 15)
const calls = option('--calls', 300)

const { createToolApp, createTool, z } = await import(
  await bundleToolroute(
    'webhooks',
    `export { createToolApp } from './src/server.ts'\nexport { createTool } from './src/index.ts'\nexport { z } from 'zod'`,
    { platform: 'node' }, // toolroute/server imports tracing/'s AsyncLocalStorage (node:async_hooks)
  )
)
let delivered = 0
const { server: receiver, url: origin } = await loopbackServer((request, response) => {
  request.resume().on('end', () => (delivered++, response.writeHead(204).end()))
})
const url = `${origin}/hooks`

const tools = [
  createTool({ id: 'approve', description: 'waits for approval', inputSchema: z.object({ n: z.number() }), requireApproval: true, execute: async ({ n }) => ({ n }) }),
  createTool({ id: 'plain', description: 'answers at once', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => ({ n }) }),
]
const apps = {
  without: createToolApp({ tools }),
  with: createToolApp({ tools, publicUrl: 'https://tools.example.test', webhooks: [{ url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] }),
}
const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' }
/** One call and a turn of the event loop, as a server has between requests: the queued deliveries go out meanwhile. */
const call = (app, toolId) => async () => {
  await (await app.request(`/tools/${toolId}`, init)).text()
  await new Promise((resolve) => setImmediate(resolve))
}
const drain = async (count) => {
  for (let wait = 0; wait < 200 && delivered < count; wait++) await new Promise((resolve) => setTimeout(resolve, 50))
}
for (const toolId of ['plain', 'approve']) {
  // A warm-up sample each, then `rounds` rounds of `calls` calls, the order swapped each round.
  const results = await compare({ without: call(apps.without, toolId), with: call(apps.with, toolId) }, { rounds, iterations: calls, baseline: 'without' })
  const microseconds = (name) => median(results[name].samples.map((opsPerSecond) => 1e6 / opsPerSecond))
  const ratios = results.with.ratios
  console.log(
    `${toolId === 'approve' ? 'approval call (run opened waiting)' : 'plain JSON call'}: ${microseconds('without').toFixed(1)} µs without webhooks, ${microseconds('with').toFixed(1)} µs with; ` +
      `with ÷ without ${median(ratios).toFixed(2)}× (median of ${rounds} rounds × ${calls} calls; rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  )
}
const queued = (rounds + 1) * calls
await drain(queued)
console.log(`deliveries the receiver took: ${delivered} of the ${queued} run.waiting queued`)
receiver.close()
