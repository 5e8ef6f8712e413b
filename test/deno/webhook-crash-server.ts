// The Deno process of the webhook and run index crash tests (test/deno/crash-recovery.test.ts): a tool that needs
// approval over a Deno KV file, its deliveries to the receiver given, retried every 1.5 s. With
// `crash-after-waiting`, the process SIGKILLs itself the moment a commit that stores a run waiting
// returns: after the transition is in the database, before anything else runs.
// deno run --unstable-kv test/deno/webhook-crash-server.ts <port> <kv file> <receiver url> [crash-after-waiting]
import { createTool } from 'toolroute'
import { createDenoToolApp } from 'toolroute/deno'
import { z } from 'zod'

const [port, kvPath, receiver, crash] = Deno.args
const refund = createTool({
  id: 'refund',
  description: 'Refunds an order once a person approves',
  inputSchema: z.object({ order: z.string() }),
  requireApproval: true,
  execute: async ({ order }) => ({ refunded: order }),
})
/** Whether a mutation writes a run record (`['toolroute', 'run', runId]`, inline JSON here) that waits. */
const storesWaiting = (key: Deno.KvKey, value: unknown) =>
  key.length === 3 && key[0] === 'toolroute' && key[1] === 'run' && typeof value === 'string' && JSON.parse(value).status === 'approval-required'

/** `kv`, whose atomic operations kill the process once a commit that stores a run waiting succeeds. */
function crashingAfterWaiting(kv: Deno.Kv): Deno.Kv {
  return new Proxy(kv, {
    get(target, name) {
      if (name !== 'atomic') {
        const value = Reflect.get(target, name, target)
        return typeof value === 'function' ? value.bind(target) : value
      }
      return () => {
        const operation = target.atomic()
        const [set, commit] = [operation.set.bind(operation), operation.commit.bind(operation)]
        let waiting = false
        operation.set = (key, value, options) => {
          waiting ||= storesWaiting(key, value)
          set(key, value, options)
          return operation
        }
        operation.commit = async () => {
          const result = await commit()
          // The continuation of the commit itself: no other callback of this process runs first.
          if (result.ok && waiting) Deno.kill(Deno.pid, 'SIGKILL')
          return result
        }
        return operation
      }
    },
  })
}

const opened = await Deno.openKv(kvPath)
const kv = crash === 'crash-after-waiting' ? crashingAfterWaiting(opened) : opened
const { app } = await createDenoToolApp({
  tools: [refund],
  kv,
  mcp: false,
  publicUrl: 'https://tools.example.test',
  webhooks: [{ url: receiver!, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', retryDelaysMs: Array(100).fill(1500) }],
})
Deno.serve({ hostname: '127.0.0.1', port: Number(port), onListen: () => console.log('listening') }, app.fetch)
