import { signWebhook } from './sign-webhook.ts'
import type { WebhookConfig } from './webhook-deliveries-of.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'

/** The waits between attempts: eleven attempts over about 24 hours (SPEC §16). */
const defaultRetryDelaysMs = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800].map((seconds) => seconds * 1000)
/** A receiver that has not answered by then failed this attempt. */
const attemptTimeoutMs = 15_000

/**
 * Sends one delivery, signed with its endpoint's secret as configured now. Answers the delivery's next
 * attempt (another answer than 2xx, a network error or a timeout, while the endpoint's `retryDelaysMs`
 * last), or `undefined`: delivered, given up (logged), or to an endpoint no longer configured. Never throws.
 */
export async function attemptWebhook(delivery: WebhookDelivery, config: WebhookConfig, now: () => number = Date.now): Promise<WebhookDelivery | undefined> {
  const endpoint = config.webhooks?.find((candidate) => candidate.url === delivery.url)
  // An endpoint no longer configured is told nothing more.
  if (!endpoint) return undefined
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
    if (response.ok) return undefined
    failure = `answered ${response.status}`
  } catch (error) {
    failure = `failed: ${error instanceof Error ? error.message : String(error)}`
  }
  const delay = (endpoint.retryDelaysMs ?? defaultRetryDelaysMs)[delivery.attempt]
  if (delay !== undefined) return { ...delivery, attempt: delivery.attempt + 1, dueAt: now() + delay }
  console.error(`toolroute: webhook ${delivery.id} to ${endpoint.url} ${failure}; giving up after ${delivery.attempt + 1} attempts`)
  return undefined
}
