import type { RunRecord } from '../runs/run-record.ts'
import type { RunStore } from '../runs/run-store.ts'
import { attemptWebhook } from './attempt-webhook.ts'
import { checkWebhookConfig } from './check-webhook-config.ts'
import { memoryWebhooks } from './memory-webhooks.ts'
import { webhookDeliveriesOf, type WebhookConfig } from './webhook-deliveries-of.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import { isTold } from './webhook-run-store.ts'

/** Where a delivery waits in Deno KV: `['toolroute', 'webhooks', id]` → the `WebhookDelivery`. */
export const denoKvWebhookPrefix = ['toolroute', 'webhooks'] as const
/** A delivery's sweep on the database's scheduler is `webhook:<id>`, named apart from run ids (UUIDs) and keys. */
const sweepPrefix = 'webhook:'

/** A Deno KV atomic operation (`Deno.AtomicOperation`), as far as used here. */
export interface KvWrites {
  set(key: readonly string[], value: unknown): KvWrites
  commit(): Promise<unknown>
}

/**
 * What the Deno adapter lends: the database (`Deno.Kv`, as far as used here), its scheduler's `scheduleIn`
 * (a sweep's writes added to an atomic operation; absent with `queue: false`), and its retry while SQLite is busy.
 */
export interface DenoKvWebhookHost {
  kv: {
    get<T>(key: readonly string[]): Promise<{ value: T | null }>
    delete(key: readonly string[]): Promise<void>
    atomic(): KvWrites
  }
  scheduleIn?(operation: KvWrites, id: string, at: number): unknown
  unlessBusy: <T>(attempt: () => Promise<T>) => Promise<T>
}

/**
 * Webhooks under Deno, from the run's own database (SPEC §16). A transition's deliveries are written in
 * the very commit that stores it (`writes`, the Deno KV run store's hook), each with its sweep on the
 * database's scheduler (a delayed queue message that a restarted process receives, and that `start` sends
 * again when a crash cut its handler off): a run stored waiting or settled always has its deliveries
 * stored, whenever the process dies. The sweep sends the delivery; a failed attempt is stored back with
 * its next time and scheduled again (one commit), a delivered one deleted. At least once: a process
 * killed after the receiver took it and before the delete sends it again, with the same `webhook-id`.
 * Without a queue (`queue: false`), deliveries are kept in memory (`memoryWebhooks`, a wrapper of the
 * store, then `writes` is absent). `sweep` answers `undefined` for an id that is not a delivery's.
 */
export function denoKvWebhooks(config: WebhookConfig, { kv, scheduleIn, unlessBusy }: DenoKvWebhookHost) {
  if (!scheduleIn) return { store: memoryWebhooks(config), writes: undefined, sweep: (_id: string): Promise<void> | undefined => undefined }
  checkWebhookConfig(config)
  const keyOf = (id: string) => [...denoKvWebhookPrefix, id]
  const add = (operation: KvWrites, delivery: WebhookDelivery) => {
    scheduleIn(operation.set(keyOf(delivery.id), delivery), `${sweepPrefix}${delivery.id}`, delivery.dueAt)
    return operation
  }
  return {
    store: (store: RunStore) => store,
    writes(run: RunRecord, operation: KvWrites, patch?: Partial<RunRecord>) {
      try {
        if (isTold(run, patch)) for (const delivery of webhookDeliveriesOf(run, config, Date.now())) add(operation, delivery)
      } catch (error) {
        // A webhook never fails a call: the run is stored all the same.
        console.error(`toolroute: the webhooks of run ${run.runId} could not be queued`, error)
      }
    },
    sweep(id: string) {
      if (!id.startsWith(sweepPrefix)) return undefined
      return (async () => {
        const key = keyOf(id.slice(sweepPrefix.length))
        const delivery = (await unlessBusy(() => kv.get<WebhookDelivery>(key))).value
        // Delivered (or given up) already: a sweep sent again after a crash.
        if (!delivery) return
        const next = await attemptWebhook(delivery, config)
        await unlessBusy(() => (next ? add(kv.atomic(), next).commit() : kv.delete(key)))
      })()
    },
  }
}
