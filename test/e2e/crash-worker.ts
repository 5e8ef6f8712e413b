// The Worker of the crash test (test/e2e/crash-recovery.test.ts): the stalling tools of
// test/fixtures/stalled-tools.ts. Its wrangler config gives leases of 2 s (TOOLROUTE_LEASE_MS), so a
// lapse is seconds away, not 30 s.
import { createWorker, workerKeyStore, workerRunStore } from 'toolroute/workers'
import { stalledTools } from '../fixtures/stalled-tools.ts'

const worker = createWorker({ tools: stalledTools, mcp: false, runStore: workerRunStore, keyStore: workerKeyStore })

export default { fetch: worker.fetch }
export class ToolRunObject extends worker.ToolRunObject {}
export class IdempotencyObject extends worker.IdempotencyObject {}
