// Webhooks (SPEC §16) never delay a call: the same toolroute/server app, in process, with and without
// `webhooks` (one receiver on loopback answering 204), called side by side in interleaved rounds.
// Two calls: an approval tool's first call (the run is opened waiting, so with webhooks a delivery is
// queued as it is stored and sent after the answer), and a plain JSON call (no run: nothing to tell).
// The approval calls' deliveries go out between calls, in the same process. Medians of each round's µs a call, and the with ÷ without ratio per round.
//
// node bench/run.mjs webhooks [--rounds 15] [--calls 300]
import { createServer } from 'node:http'
import { bundleToolroute } from './build-bundle.mjs'
import { median } from './measure.mjs'

const args = process.argv.slice(2)
const option = (flag, fallback) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback)
const rounds = option('--rounds', 15)
const calls = option('--calls', 300)

const { createToolApp, createTool, z } = await import(
  await bundleToolroute(
    'webhooks',
    `export { createToolApp } from './src/server.ts'\nexport { createTool } from './src/index.ts'\nexport { z } from 'zod'`,
  )
)
let delivered = 0
const receiver = createServer((request, response) => {
  request.resume().on('end', () => (delivered++, response.writeHead(204).end()))
})
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${receiver.address().port}/hooks`

const tools = [
  createTool({ id: 'approve', description: 'waits for approval', inputSchema: z.object({ n: z.number() }), requireApproval: true, execute: async ({ n }) => ({ n }) }),
  createTool({ id: 'plain', description: 'answers at once', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => ({ n }) }),
]
const apps = {
  without: createToolApp({ tools }),
  with: createToolApp({ tools, publicUrl: 'https://tools.example.test', webhooks: [{ url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] }),
}
const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' }
async function time(app, toolId) {
  const started = performance.now()
  for (let index = 0; index < calls; index++) {
    await (await app.request(`/tools/${toolId}`, init)).text()
    // A turn of the event loop between requests, as a server has: the queued deliveries go out meanwhile.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return ((performance.now() - started) * 1000) / calls
}
const drain = async (count) => {
  for (let wait = 0; wait < 200 && delivered < count; wait++) await new Promise((resolve) => setTimeout(resolve, 50))
}
for (const toolId of ['plain', 'approve']) {
  const times = { with: [], without: [] }
  const ratios = []
  for (let round = 0; round < rounds + 1; round++) {
    const order = round % 2 ? ['with', 'without'] : ['without', 'with']
    const got = {}
    for (const name of order) got[name] = await time(apps[name], toolId)
    if (round === 0) continue // warm-up
    times.with.push(got.with)
    times.without.push(got.without)
    ratios.push(got.with / got.without)
  }
  console.log(
    `${toolId === 'approve' ? 'approval call (run opened waiting)' : 'plain JSON call'}: ${median(times.without).toFixed(1)} µs without webhooks, ${median(times.with).toFixed(1)} µs with; ` +
      `with ÷ without ${median(ratios).toFixed(2)}× (median of ${rounds} rounds × ${calls} calls; rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  )
}
const queued = (rounds + 1) * calls
await drain(queued)
console.log(`deliveries the receiver took: ${delivered} of the ${queued} run.waiting queued`)
receiver.close()
