// The RunStore contract over the in-memory store, in Node.
import { test } from 'vitest'
import { createMemoryRunStore } from '../../src/store/memory/memory-run-store.ts'
import { defineRunStoreContract } from '../shared/run-store-contract.ts'

defineRunStoreContract('memory', () => createMemoryRunStore(), { test })
