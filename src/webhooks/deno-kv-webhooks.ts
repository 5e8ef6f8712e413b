import type { RunStore } from '../runs/run-store.ts'
import { attemptWebhook } from './attempt-webhook.ts'
import { checkWebhookConfig } from './check-webhook-config.ts'
import { memoryWebhooks } from './memory-webhooks.ts'
import { webhookDeliveriesOf, type WebhookConfig } from './webhook-deliveries-of.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import { webhookRunStore } from './webhook-run-store.ts'

/** Where a delivery waits in Deno KV: `['toolroute', 'webhooks', id]` → the `WebhookDelivery`. */
export const denoKvWebhookPrefix = ['toolroute', 'webhooks'] as const
/** A delivery's sweep on the database's scheduler is `webhook:<id>`, named apart from run ids (UUIDs) and keys. */
const sweepPrefix = 'webhook:'

/** What the Deno adapter lends: the database (`Deno.Kv`, as far as used here), its scheduler's `schedule` (absent with `queue: false`), and its retry while SQLite is busy. */
export interface DenoKvWebhookHost {
  kv: {
    get<T>(key: readonly string[]): Promise<{ value: T | null }>
    set(key: readonly string[], value: unknown): Promise<unknown>
    delete(key: readonly string[]): Promise<void>
  }
  schedule?: (id: string, at: number) => Promise<void>
  unlessBusy: <T>(attempt: () => Promise<T>) => Promise<T>
}

/**
 * Webhooks under Deno, from the run's own database (SPEC §16): a transition's deliveries are stored in
 * Deno KV once the transition is, each with a sweep on the database's scheduler (a delayed queue message
 * that a restarted process receives, and that `start` sends again when a crash cut its handler off).
 * The sweep sends the delivery; a failed attempt is stored back with its next time and scheduled again,
 * a delivered one deleted. At least once: a process killed after the receiver took it and before the
 * delete sends it again, with the same `webhook-id`. Without a queue (`queue: false`), deliveries are
 * kept in memory (`memoryWebhooks`). `sweep` answers `undefined` for an id that is not a delivery's.
 */
export function denoKvWebhooks(config: WebhookConfig, { kv, schedule, unlessBusy }: DenoKvWebhookHost): { store: (store: RunStore) => RunStore; sweep: (id: string) => Promise<void> | undefined } {
  if (!schedule) return { store: memoryWebhooks(config), sweep: () => undefined }
  checkWebhookConfig(config)
  const keyOf = (id: string) => [...denoKvWebhookPrefix, id]
  const put = async (delivery: WebhookDelivery) => {
    await unlessBusy(() => kv.set(keyOf(delivery.id), delivery))
    await schedule(`${sweepPrefix}${delivery.id}`, delivery.dueAt)
  }
  return {
    store: (store) =>
      webhookRunStore(store, async (run) => {
        for (const delivery of webhookDeliveriesOf(run, config, Date.now())) await put(delivery)
      }),
    sweep(id) {
      if (!id.startsWith(sweepPrefix)) return undefined
      return (async () => {
        const key = keyOf(id.slice(sweepPrefix.length))
        const delivery = (await unlessBusy(() => kv.get<WebhookDelivery>(key))).value
        // Delivered (or given up) already: a sweep sent again after a crash.
        if (!delivery) return
        const next = await attemptWebhook(delivery, config)
        if (next) await put(next)
        else await unlessBusy(() => kv.delete(key))
      })()
    },
  }
}
