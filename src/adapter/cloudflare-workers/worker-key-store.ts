import type { IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import { idempotentCall } from '../../http/idempotent-call.ts'
import type { IdempotentCall } from '../../http/tool-app-features.ts'
import { createIdempotencyObject, type IdempotencyObjectOptions } from './create-idempotency-object.ts'
import { createDurableObjectIdempotencyStore } from './durable-object-idempotency-store.ts'

/** What `createWorker` knows that keys on Workers need: the config's times, and where a call cut off by a crash leaves its run. */
export interface WorkerKeyStoreContext {
  options: IdempotencyObjectOptions
}

/** Idempotent calls on Workers: what answers a keyed call, the store over the `TOOLROUTE_IDEMPOTENCY` namespace, and the class each key lives in. */
export interface WorkerKeyStore {
  call: IdempotentCall
  /** The key store over a namespace; one per namespace. */
  store: (namespace: DurableObjectNamespace) => IdempotencyStore
  IdempotencyObject: ReturnType<typeof createIdempotencyObject>
}

/**
 * `Idempotency-Key` on Workers (SPEC §9), passed in as `keyStore` by the generated entry unless the
 * config says `idempotency: false`: `createWorker` itself imports none of it, so a Worker that
 * ignores the header bundles neither the keyed call nor the keys' Durable Object.
 */
export function workerKeyStore(context: WorkerKeyStoreContext): WorkerKeyStore {
  const stores = new WeakMap<DurableObjectNamespace, IdempotencyStore>()
  return {
    call: idempotentCall,
    store: (namespace) => {
      let store = stores.get(namespace)
      if (!store) stores.set(namespace, (store = createDurableObjectIdempotencyStore(namespace)))
      return store
    },
    IdempotencyObject: createIdempotencyObject(context.options),
  }
}
