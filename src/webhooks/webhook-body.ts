import type { RunSummary } from '../protocol/call-result.ts'

/**
 * What a webhook's body holds (SPEC §16): the run as listed, who owns it, and absolute links to the
 * run and to the actions its state allows (`approve` and `decline` while approval is required,
 * `resume` while suspended); never its input, output or payloads.
 */
export interface WebhookBody {
  type: 'run.waiting' | 'run.settled'
  /** When the run's state changed (ISO time). */
  timestamp: string
  data: RunSummary & {
    principal?: string
    links: { run: string; events: string; approve?: string; decline?: string; resume?: string }
  }
}
