import { attemptWebhook } from './attempt-webhook.ts'
import type { WebhookConfig } from './webhook-deliveries-of.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookOutbox } from './webhook-outbox.ts'

/**
 * Sends every due delivery of `outbox`, to each endpoint one after the other (a run's `run.waiting`
 * before its `run.settled`): a 2xx answer removes it; another answer, a network error or a timeout puts it back
 * for its next attempt, until the endpoint's `retryDelaysMs` run out. Never throws: what it cannot
 * deliver it logs.
 */
export async function deliverDueWebhooks(outbox: WebhookOutbox, config: WebhookConfig, now: () => number = Date.now): Promise<void> {
  const byUrl = new Map<string, WebhookDelivery[]>()
  for (const delivery of outbox.due(now())) byUrl.set(delivery.url, [...(byUrl.get(delivery.url) ?? []), delivery])
  // Each endpoint in turn, the endpoints at once: a slow receiver holds up only its own.
  await Promise.all(
    [...byUrl.values()].map(async (deliveries) => {
      for (const delivery of deliveries) {
        const next = await attemptWebhook(delivery, config, now)
        if (next) outbox.put([next])
        else outbox.remove(delivery.id)
      }
    }),
  )
}
