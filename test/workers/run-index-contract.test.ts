// The RunIndex contract in workerd: the Durable Object index (an `index:<principal>` object of the
// runs namespace, over RPC) and the Workers KV index over a real KV binding.
import { env } from 'cloudflare:test'
import { test } from 'vitest'
import { createDurableObjectRunIndex } from '../../src/adapter/cloudflare-workers/durable-object-run-index.ts'
import { createKvRunIndex } from '../../src/adapter/cloudflare-workers/create-kv-run-index.ts'
import { defineRunIndexContract } from '../shared/run-index-contract.ts'

// Every test gets principals of its own: the objects and keys outlive a test.
const unique = () => {
  const prefix = crypto.randomUUID()
  return (who: string) => `${prefix}:${who}`
}
defineRunIndexContract('Durable Object', async () => ({ index: createDurableObjectRunIndex(env.TOOLROUTE_RUNS), principal: unique() }), { test })
defineRunIndexContract('Workers KV', async () => ({ index: createKvRunIndex(env.TOOLROUTE_RUNS_KV), principal: unique() }), { test })
