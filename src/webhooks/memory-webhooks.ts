import type { RunStore } from '../runs/run-store.ts'
import { deliverDueWebhooks } from './deliver-due-webhooks.ts'
import { memoryWebhookOutbox } from './memory-webhook-outbox.ts'
import { webhookDeliveriesOf, type WebhookConfig } from './webhook-deliveries-of.ts'
import { webhookRunStore } from './webhook-run-store.ts'
import { checkWebhookConfig } from './check-webhook-config.ts'

/**
 * Webhooks of runs kept in this process (`toolroute/server`, Node, Deno): each transition stored
 * queues its deliveries in memory, and a timer sends them after the call's own work, retrying with
 * backoff. Passed by the composer as `ToolAppFeatures.webhooks`; it wraps the run store.
 */
export function memoryWebhooks(config: WebhookConfig): (store: RunStore) => RunStore {
  checkWebhookConfig(config)
  const outbox = memoryWebhookOutbox()
  let timer: ReturnType<typeof setTimeout> | undefined
  let sending: Promise<void> | undefined
  const wake = (at: number) => {
    if (sending) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(send, Math.max(0, at - Date.now()))
    // A pending retry does not keep a process alive that would otherwise exit.
    ;(timer as { unref?: () => void }).unref?.()
  }
  function send() {
    timer = undefined
    sending = deliverDueWebhooks(outbox, config).finally(() => {
      sending = undefined
      const next = outbox.nextAt()
      if (next !== undefined) wake(next)
    })
  }
  return (store) =>
    webhookRunStore(store, (run) => {
      const deliveries = webhookDeliveriesOf(run, config, Date.now())
      if (deliveries.length === 0) return
      outbox.put(deliveries)
      wake(Date.now())
    })
}
