import type { IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import { openInterruptedRun } from '../../idempotency/interrupted-call.ts'
import type { RunHost } from '../../runs/run-host.ts'
import { idempotentCall } from '../../http/idempotent-call.ts'
import type { IdempotentCall } from '../../http/tool-app-features.ts'
import { createIdempotencyObject, type IdempotencyObjectOptions } from './create-idempotency-object.ts'
import { createDurableObjectIdempotencyStore } from './durable-object-idempotency-store.ts'
import { perNamespace } from './per-namespace.ts'

/** What `createWorker` knows that keys on Workers need. */
export interface WorkerKeyStoreContext {
  /** The run host, from the env alone: where a call cut off by a crash leaves its run. */
  runs: (env: unknown) => RunHost
  /** The config's times (`retentionMs`, `leaseMs`). */
  options: Omit<IdempotencyObjectOptions, 'onInterrupted'>
}

/** Idempotent calls on Workers: the keyed call, the store over a namespace, and the class each key lives in. */
export interface WorkerKeyStore {
  call: IdempotentCall
  store: (namespace: DurableObjectNamespace) => IdempotencyStore
  IdempotencyObject: ReturnType<typeof createIdempotencyObject>
}

/**
 * `Idempotency-Key` on Workers (SPEC §9), passed in as `keyStore` by the generated entry unless the config
 * says `idempotency: false`, so a Worker that ignores the header bundles neither the keyed call nor its object.
 */
export function workerKeyStore(context: WorkerKeyStoreContext): WorkerKeyStore {
  return {
    call: idempotentCall,
    store: perNamespace(createDurableObjectIdempotencyStore),
    IdempotencyObject: createIdempotencyObject({
      ...context.options,
      // A keyed call cut off by a crash leaves its run failed, in the run's own object.
      onInterrupted: async (env, lease) => openInterruptedRun(context.runs(env), lease),
    }),
  }
}
