import type { WebhookDelivery } from './webhook-delivery.ts'
import type { WebhookOutbox } from './webhook-outbox.ts'

type Row = { id: string; url: string; body: string; attempt: number; due: number }

/**
 * An outbox in a run object's SQLite, beside the run it tells of: table `webhook_delivery (id TEXT
 * PRIMARY KEY, url, body, attempt, due)`, `due` in ms. `exec` is synchronous, so a transition's
 * deliveries are stored in the same turn as the transition, before anything is sent.
 */
export function sqlWebhookOutbox(sql: SqlStorage): WebhookOutbox {
  sql.exec('CREATE TABLE IF NOT EXISTS webhook_delivery (id TEXT PRIMARY KEY, url TEXT NOT NULL, body TEXT NOT NULL, attempt INTEGER NOT NULL, due INTEGER NOT NULL)')
  const deliveryOf = ({ id, url, body, attempt, due }: Row): WebhookDelivery => ({ id, url, body, attempt, dueAt: due })
  return {
    put(deliveries) {
      for (const { id, url, body, attempt, dueAt } of deliveries) {
        sql.exec('INSERT OR REPLACE INTO webhook_delivery (id, url, body, attempt, due) VALUES (?, ?, ?, ?, ?)', id, url, body, attempt, dueAt)
      }
    },
    due: (now) => sql.exec<Row>('SELECT id, url, body, attempt, due FROM webhook_delivery WHERE due <= ? ORDER BY due, rowid', now).toArray().map(deliveryOf),
    remove: (id) => void sql.exec('DELETE FROM webhook_delivery WHERE id = ?', id),
    nextAt: () => sql.exec<{ due: number | null }>('SELECT MIN(due) AS due FROM webhook_delivery').one().due ?? undefined,
  }
}
