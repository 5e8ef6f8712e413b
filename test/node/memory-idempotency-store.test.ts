// The IdempotencyStore contract over the in-memory store, in Node.
import { test } from 'vitest'
import { createMemoryIdempotencyStore } from '../../src/store/memory/memory-idempotency-store.ts'
import { defineIdempotencyStoreContract } from '../shared/idempotency-store-contract.ts'

let now = Date.now()
const store = createMemoryIdempotencyStore({ retentionMs: 60_000, leaseMs: 3_000, now: () => now })
defineIdempotencyStoreContract('memory', () => store, { test }, { expire: () => void (now += 60_000), lapse: () => void (now += 3_000) })
