import type { ToolAppOptions } from '../http/tool-app-options.ts'
import { runSummaryOf } from '../runs/run-summary-of.ts'
import { settledStatuses, waitingStatuses, type RunRecord } from '../runs/run-record.ts'
import type { WebhookBody } from './webhook-body.ts'
import type { WebhookDelivery } from './webhook-delivery.ts'

/** What webhooks are told from: the config's endpoints and the base of their links. */
export type WebhookConfig = Pick<ToolAppOptions, 'webhooks' | 'publicUrl'>

/**
 * The deliveries a run's new state calls for: `run.waiting` or `run.settled` to each endpoint that
 * takes it, none for another state. Ids, times and links only: the body names no input, output or payload.
 */
export function webhookDeliveriesOf(run: RunRecord, config: WebhookConfig, now: number): WebhookDelivery[] {
  const type = waitingStatuses.includes(run.status) ? 'run.waiting' : settledStatuses.includes(run.status) ? 'run.settled' : undefined
  const endpoints = (config.webhooks ?? []).filter((endpoint) => type && (endpoint.events ?? ['run.waiting', 'run.settled']).includes(type))
  if (!type || endpoints.length === 0) return []
  const base = `${String(config.publicUrl).replace(/\/+$/, '')}/runs/${encodeURIComponent(run.runId)}`
  const links: WebhookBody['data']['links'] = { run: base, events: `${base}/events` }
  if (run.status === 'approval-required') Object.assign(links, { approve: `${base}/approve`, decline: `${base}/decline` })
  if (run.status === 'suspended') links.resume = `${base}/resume`
  const body: WebhookBody = { type, timestamp: run.updatedAt, data: { ...runSummaryOf(run), ...(run.principal !== null ? { principal: run.principal } : {}), links } }
  const text = JSON.stringify(body)
  return endpoints.map((endpoint) => ({ id: `msg_${crypto.randomUUID()}`, url: endpoint.url, body: text, attempt: 0, dueAt: now }))
}
