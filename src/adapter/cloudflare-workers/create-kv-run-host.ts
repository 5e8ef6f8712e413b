import type { EnvContext } from '../../caller/caller-options.ts'
import type { ToolAppOptions } from '../../http/tool-app-options.ts'
import { toolRegistry } from '../../manifest/tool-registry.ts'
import { deferOf } from '../../caller/defer-of.ts'
import { createRunEngine, type RunEngineOptions } from '../../runs/create-run-engine.ts'
import { driveRuns } from '../../runs/drive-runs.ts'
import type { RunHost } from '../../runs/run-host.ts'
import { runHostForCall } from '../../runs/run-host-for-call.ts'
import { createKvRunStore, type KvRunStoreOptions } from './kv-run-store.ts'
import { withRunIndex } from '../../runs/with-run-index.ts'
import { createKvRunIndex } from './create-kv-run-index.ts'
import { perNamespace } from './per-namespace.ts'

/** The KV binding `createKvRunHost` reads by default (wrangler.toml `[[kv_namespaces]]`). */
export const runsKvBinding = 'TOOLROUTE_RUNS_KV'

export interface KvRunHostOptions extends KvRunStoreOptions, Pick<RunEngineOptions, 'ttlMs' | 'runLimits'> {
  /** The KV namespace binding (default `TOOLROUTE_RUNS_KV`). */
  binding?: string
  /** How long a settled run is kept, once something reads it past that (default 24 h). */
  retentionMs?: number
  /** How often followers poll KV for events written by other requests (default 500 ms). */
  pollMs?: number
}

/**
 * Runs in Workers KV instead of Durable Objects, for deployments that choose it. KV is
 * eventually consistent and has no compare-and-set: two racing approvals in different
 * isolates can both execute the tool, events written elsewhere show up late, and a cancel does
 * not abort an attempt running in another isolate (it does in its own). Background work runs
 * in the request that started it (`waitUntil`), not in a Durable Object.
 *
 * @example
 * const worker = createWorker({ tools, runs: createKvRunHost(tools) })
 */
export function createKvRunHost(tools: ToolAppOptions['tools'], options: KvRunHostOptions = {}): (c: EnvContext) => RunHost {
  const registry = toolRegistry(tools)
  // One engine (and store) per namespace and isolate: the store's per-run queues serialise this
  // isolate's requests, and the engine's followers and running steps are shared by them, so a
  // cancel reaches an attempt another request of this isolate runs. Each request binds its own
  // `waitUntil` to the calls it makes.
  const { binding = runsKvBinding, expirationTtl: _storeOnly, pollMs = 500, ...engineOptions } = options
  const indexOf = perNamespace((kv: KVNamespace) => createKvRunIndex(kv, options))
  const engineOf = perNamespace((kv: KVNamespace) => createRunEngine({ ...engineOptions, drive: driveRuns(registry), store: createKvRunStore(kv, options), index: indexOf(kv), pollMs }))
  return (c) => {
    const kv = (c.env as Record<string, KVNamespace | undefined> | undefined)?.[binding]
    if (!kv) throw new Error(`KV binding ${binding} is missing from wrangler.toml`)
    const defer = deferOf(c)
    return withRunIndex(runHostForCall(engineOf(kv), { defer: (work) => defer(work.catch(() => {})) }), indexOf(kv))
  }
}
