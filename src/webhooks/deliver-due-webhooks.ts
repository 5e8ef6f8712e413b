import { signWebhook } from './sign-webhook.ts'
import type { WebhookConfig } from './webhook-deliveries-of.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookOutbox } from './webhook-outbox.ts'

/** The waits between attempts: eleven attempts over about 24 hours (SPEC §16). */
const defaultRetryDelaysMs = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800].map((seconds) => seconds * 1000)
/** A receiver that has not answered by then failed this attempt. */
const attemptTimeoutMs = 15_000

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
  await Promise.all([...byUrl.values()].map((deliveries) => deliverInTurn(deliveries, outbox, config, now)))
}

async function deliverInTurn(deliveries: WebhookDelivery[], outbox: WebhookOutbox, config: WebhookConfig, now: () => number) {
  for (const delivery of deliveries) {
    const endpoint = config.webhooks?.find((candidate) => candidate.url === delivery.url)
    // An endpoint no longer configured is told nothing more.
    if (!endpoint) {
      outbox.remove(delivery.id)
      continue
    }
    let failure: string
    try {
      const timestamp = Math.floor(now() / 1000)
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': await signWebhook(endpoint.secret, delivery.id, timestamp, delivery.body),
        },
        body: delivery.body,
        signal: AbortSignal.timeout(attemptTimeoutMs),
      })
      await response.body?.cancel()
      if (response.ok) {
        outbox.remove(delivery.id)
        continue
      }
      failure = `answered ${response.status}`
    } catch (error) {
      failure = `failed: ${error instanceof Error ? error.message : String(error)}`
    }
    const delays = endpoint.retryDelaysMs ?? defaultRetryDelaysMs
    const delay = delays[delivery.attempt]
    if (delay === undefined) {
      outbox.remove(delivery.id)
      console.error(`toolroute: webhook ${delivery.id} to ${endpoint.url} ${failure}; giving up after ${delivery.attempt + 1} attempts`)
    } else {
      outbox.put([{ ...delivery, attempt: delivery.attempt + 1, dueAt: now() + delay }])
    }
  }
}
