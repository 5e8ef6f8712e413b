// The RunStore contract in workerd: the Durable Object store inside a real object (driven over
// RPC, so races happen inside the object), and the Workers KV store over a real KV binding.
import { env } from 'cloudflare:test'
import { test } from 'vitest'
import type { RunStore } from '../../src/runs/run-store.ts'
import { createKvRunStore } from '../../src/adapter/cloudflare-workers/kv-run-store.ts'
import { defineRunStoreContract } from '../shared/run-store-contract.ts'

interface ProbeStub {
  call(method: string, args: unknown[]): Promise<{ value: unknown } | { thrown: string }>
  exactlyOnce(): Promise<boolean>
}

/** A fresh object per store: one Durable Object holds one run. */
async function durableObjectStore(): Promise<RunStore> {
  const probe = env.RUN_STORE_PROBE.get(env.RUN_STORE_PROBE.newUniqueId()) as unknown as ProbeStub
  const call = (method: string) => async (...args: unknown[]) => {
    const result = await probe.call(method, args)
    if ('thrown' in result) throw new Error(result.thrown)
    return result.value
  }
  return {
    exactlyOnce: await probe.exactlyOnce(),
    create: call('create'),
    get: call('get'),
    transition: (runId: string, from: unknown, patch: unknown, events: unknown, when?: { leaseUntil?: string }) =>
      when ? call('transitionHolding')(runId, from, patch, events, when.leaseUntil) : call('transition')(runId, from, patch, events),
    append: call('append'),
    events: call('events'),
    size: call('size'),
    delete: call('delete'),
  } as RunStore
}

defineRunStoreContract('durable object', durableObjectStore, { test })
defineRunStoreContract('workers kv', () => createKvRunStore(env.TOOLROUTE_RUNS_KV), { test })
