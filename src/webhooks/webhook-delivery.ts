/** One message to one endpoint, as an outbox keeps it until the endpoint takes it or its retries run out. */
export interface WebhookDelivery {
  /** The `webhook-id`: the same on every attempt, so a receiver drops what it already took. */
  id: string
  /** The endpoint's URL; its secret is read from the config at each attempt (a rotated secret applies at once). */
  url: string
  /** The JSON body (`WebhookBody`), signed as is. */
  body: string
  /** Attempts made so far. */
  attempt: number
  /** When the next attempt is due (ms since the epoch). */
  dueAt: number
}
