import type { WebhookDelivery } from './webhook-delivery.ts'

/** Where deliveries wait, beside the run they tell of: a run object's SQLite, or this process's memory. */
export interface WebhookOutbox {
  /** Adds deliveries or replaces them (by id): a retry is put back with its next `dueAt`. */
  put(deliveries: readonly WebhookDelivery[]): void
  /** The deliveries due at `now`, oldest first. */
  due(now: number): WebhookDelivery[]
  remove(id: string): void
  /** When the next one is due, if any remains. */
  nextAt(): number | undefined
}
