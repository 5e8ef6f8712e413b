// The Deno process of the webhook crash test (test/deno/crash-recovery.test.ts): a tool that needs
// approval over a Deno KV file, its deliveries to the receiver given, retried every 1.5 s.
// deno run --unstable-kv test/deno/webhook-crash-server.ts <port> <kv file> <receiver url>
import { createTool } from 'toolroute'
import { createDenoToolApp } from 'toolroute/deno'
import { z } from 'zod'

const [port, kvPath, receiver] = Deno.args
const refund = createTool({
  id: 'refund',
  description: 'Refunds an order once a person approves',
  inputSchema: z.object({ order: z.string() }),
  requireApproval: true,
  execute: async ({ order }) => ({ refunded: order }),
})
const kv = await Deno.openKv(kvPath)
const { app } = await createDenoToolApp({
  tools: [refund],
  kv,
  mcp: false,
  publicUrl: 'https://tools.example.test',
  webhooks: [{ url: receiver!, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', retryDelaysMs: Array(100).fill(1500) }],
})
Deno.serve({ hostname: '127.0.0.1', port: Number(port), onListen: () => console.log('listening') }, app.fetch)
