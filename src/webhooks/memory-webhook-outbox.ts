import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookOutbox } from './webhook-outbox.ts'

/** An outbox in this process's memory: deliveries live as long as the process, as its runs do. */
export function memoryWebhookOutbox(): WebhookOutbox {
  const deliveries = new Map<string, WebhookDelivery>()
  const ordered = () => [...deliveries.values()].sort((a, b) => a.dueAt - b.dueAt)
  return {
    put(added) {
      for (const delivery of added) deliveries.set(delivery.id, delivery)
    },
    due: (now) => ordered().filter((delivery) => delivery.dueAt <= now),
    remove: (id) => void deliveries.delete(id),
    nextAt: () => ordered()[0]?.dueAt,
  }
}
