// Durable Objects that exist only for the workerd tests.
import { DurableObject } from 'cloudflare:workers'
import type { RunStore } from '../../src/runs/run-store.ts'
import { createDurableObjectRunStore } from '../../src/adapter/cloudflare-workers/durable-object-run-store.ts'

type StoreMethod = 'create' | 'get' | 'transition' | 'append' | 'events' | 'size' | 'delete' | 'transitionHolding'

/**
 * Hosts a real Durable Object run store; the contract suite drives it over RPC, so every call
 * (and every race of calls) happens inside the object, as in production.
 */
export class RunStoreProbe extends DurableObject {
  private readonly store: RunStore = createDurableObjectRunStore(this.ctx.storage)

  /** A rejection crosses as `{ thrown }` (a rejected RPC would also be logged as uncaught). */
  async call(method: StoreMethod, args: unknown[]): Promise<{ value: unknown } | { thrown: string }> {
    try {
      // A transition's condition cannot cross RPC: it comes as the lease it checks for.
      if (method === 'transitionHolding') {
        const [runId, from, patch, events, lease] = args as Parameters<RunStore['transition']>
        return { value: await this.store.transition(runId, from, patch, events, (run) => run.leaseUntil === (lease as unknown as string)) }
      }
      return { value: await (this.store[method] as (...values: unknown[]) => Promise<unknown>)(...args) }
    } catch (error) {
      return { thrown: error instanceof Error ? error.message : String(error) }
    }
  }

  exactlyOnce(): boolean {
    return this.store.exactlyOnce
  }
}

/**
 * A durable counter, one object per key: fixture tools count their executions here, so a test
 * sees every execution wherever it ran (any object, any isolate).
 */
export class ExecutionCounter extends DurableObject {
  private readonly sql = this.ctx.storage.sql

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never)
    this.sql.exec('CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)')
  }

  increment(): number {
    this.sql.exec('INSERT INTO counter (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1')
    return this.count()
  }

  count(): number {
    return this.sql.exec<{ n: number }>('SELECT n FROM counter WHERE id = 1').toArray()[0]?.n ?? 0
  }
}
