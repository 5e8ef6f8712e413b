import type { RunStore } from '../runs/run-store.ts'
import { checkWebhookConfig } from './check-webhook-config.ts'
import { deliverDueWebhooks } from './deliver-due-webhooks.ts'
import { sqlWebhookOutbox } from './sql-webhook-outbox.ts'
import { webhookDeliveriesOf, type WebhookConfig } from './webhook-deliveries-of.ts'
import { webhookRunStore } from './webhook-run-store.ts'

/**
 * Webhooks on Workers, from each run's own Durable Object (`createWorker`'s `webhookSender`, which
 * `toolroute build` passes only when the config has `webhooks`). A transition's deliveries are stored
 * in the object's SQLite as the transition is, and sent from the object's alarm, never from the call.
 * An object has one alarm: this keeps the engine's next sweep (`webhook_sweep`) and sets the alarm to
 * the earlier of it and the next delivery due; at the alarm it sweeps when the sweep is due, then sends.
 */
export function workerWebhooks(config: WebhookConfig) {
  checkWebhookConfig(config)
  return (storage: DurableObjectStorage) => {
    const sql = storage.sql
    const outbox = sqlWebhookOutbox(sql)
    sql.exec('CREATE TABLE IF NOT EXISTS webhook_sweep (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL)')
    const sweepAt = () => sql.exec<{ at: number }>('SELECT at FROM webhook_sweep').toArray()[0]?.at
    const arm = async () => {
      const times = [sweepAt(), outbox.nextAt()].filter((at) => at !== undefined)
      if (times.length > 0) await storage.setAlarm(Math.min(...times))
    }
    // One sending at a time per object (an alarm retried while one still sends).
    let sending: Promise<void> | undefined
    return {
      store: (store: RunStore) =>
        webhookRunStore(store, async (run) => {
          const deliveries = webhookDeliveriesOf(run, config, Date.now())
          if (deliveries.length === 0) return
          outbox.put(deliveries)
          await arm()
        }),
      async schedule(at: number) {
        sql.exec('INSERT OR REPLACE INTO webhook_sweep (id, at) VALUES (1, ?)', at)
        await arm()
      },
      async alarm(sweep: () => Promise<void>) {
        const at = sweepAt()
        // No time kept (an alarm set before webhooks were configured): swept, as it always was.
        if (at === undefined || at <= Date.now()) {
          sql.exec('DELETE FROM webhook_sweep')
          await sweep()
        }
        await (sending ??= deliverDueWebhooks(outbox, config).finally(() => (sending = undefined)))
        await arm()
      },
    }
  }
}
