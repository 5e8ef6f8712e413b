// The IdempotencyStore contract over real Durable Objects: one object per principal and key,
// driven over RPC as the Worker drives them.
import { env } from 'cloudflare:workers'
import { beforeAll, test } from 'vitest'
import { createDurableObjectIdempotencyStore } from '../../src/adapter/cloudflare-workers/durable-object-idempotency-store.ts'
import { defineIdempotencyStoreContract } from '../shared/idempotency-store-contract.ts'

const namespace = (env as unknown as { TOOLROUTE_IDEMPOTENCY: DurableObjectNamespace }).TOOLROUTE_IDEMPOTENCY
const store = createDurableObjectIdempotencyStore(namespace)
// The first object of a run loads the whole test Worker (seconds under load): not the contract's time.
beforeAll(() => store.begin({ principal: null, key: 'warm-up' }, 'warm-up').then(() => undefined), 60_000)
defineIdempotencyStoreContract('Durable Objects', () => store, { test })
