// The Deno process of the crash test (test/deno/crash-recovery.test.ts): the stalling tools over
// a Deno KV file, with leases of 1.5 s (`leaseMs`), on the port given.
// deno run --unstable-kv test/deno/crash-server.ts <port> <kv file>
import { createDenoToolApp } from 'toolroute/deno'
import { stalledTools } from '../fixtures/stalled-tools.ts'

const [port, kvPath] = Deno.args
const kv = await Deno.openKv(kvPath)
const { app } = await createDenoToolApp({ tools: stalledTools, kv, leaseMs: 1500, mcp: false })
Deno.serve({ hostname: '127.0.0.1', port: Number(port), onListen: () => console.log('listening') }, app.fetch)
