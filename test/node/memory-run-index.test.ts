import { test } from 'vitest'
import { createMemoryRunIndex } from '../../src/runs/create-memory-run-index.ts'
import { defineRunIndexContract } from '../shared/run-index-contract.ts'

defineRunIndexContract('memory', async () => ({ index: createMemoryRunIndex(), principal: (who) => who }), { test })
