import { describe, expectTypeOf, it } from 'vitest'
import type { IdempotencyBegin, IdempotencyStore, IdempotentAnswer } from './idempotency-store.ts'
import { createMemoryIdempotencyStore } from '../store/memory/memory-idempotency-store.ts'

describe('IdempotencyStore', () => {
  it('begin answers one of four states; a replay carries the first answer', async () => {
    const store: IdempotencyStore = createMemoryIdempotencyStore()
    const begun = await store.begin({ principal: null, key: 'k' }, 'f')
    expectTypeOf(begun).toEqualTypeOf<IdempotencyBegin>()
    expectTypeOf(begun.state).toEqualTypeOf<'new' | 'replay' | 'conflict' | 'reused'>()
    if (begun.state === 'replay') expectTypeOf(begun.answer).toEqualTypeOf<IdempotentAnswer>()
  })
})
