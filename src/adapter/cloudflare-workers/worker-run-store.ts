import { createRunEngine } from '../../runs/create-run-engine.ts'
import { finishedRuns } from '../../runs/finished-runs.ts'
import type { RunHost } from '../../runs/run-host.ts'
import { withRunIndex } from '../../runs/with-run-index.ts'
import type { AnyTool } from '../../tool/tool-types.ts'
import { createRunObjectClass, type RunObjectMount, type ToolRunObject, type ToolRunObjectOptions } from './create-run-object-class.ts'
import { createToolRunObject } from './create-tool-run-object.ts'
import { createDurableObjectRunHost, createFinishedDurableObjectRunHost } from './durable-object-run-host.ts'
import { createDurableObjectRunIndex } from './durable-object-run-index.ts'
import { perNamespace } from './per-namespace.ts'

/** What `createWorker` knows that runs on Workers need. */
export interface WorkerRunStoreContext {
  tools: ReadonlyMap<string, AnyTool>
  /** The config's times (`runTtlMs`, `retentionMs`). */
  options: ToolRunObjectOptions
  /** What a mounted feature adds to each run object (`workerWebhooks`), when the entry passed one. */
  mount?: RunObjectMount | undefined
  /** Each run object's tracer (`workerTracing.inObject`), when the config has `tracing`. */
  tracer?: Parameters<typeof createToolRunObject>[3]
}

/** Runs on Workers: the run host over the `TOOLROUTE_RUNS` namespace, and the object class each run lives in. */
export interface WorkerRunStore {
  /** The run host (with its per-principal index, where runs are listed) over a namespace; one per namespace. */
  host: (namespace: DurableObjectNamespace) => RunHost
  ToolRunObject: new (ctx: DurableObjectState, env: unknown) => ToolRunObject
}

/**
 * Durable Object runs for `createWorker`, passed in as `runStore` by the generated entry only when the
 * app's calls can reach a run (`runStoreReasons`): `createWorker` itself imports no run engine or
 * store, so a Worker whose calls all complete in their request bundles none (SPEC §11).
 */
export function workerRunStore(context: WorkerRunStoreContext): WorkerRunStore {
  return {
    host: perNamespace((namespace) => withRunIndex(createDurableObjectRunHost(namespace), createDurableObjectRunIndex(namespace))),
    ToolRunObject: createToolRunObject(context.tools, context.options, context.mount, context.tracer),
  }
}

/**
 * The run store of an app whose tools never wait but whose calls may be stored (`Idempotency-Key`,
 * `storeRuns: 'all'`): such a run is stored settled and only read back, so its object's engine is given
 * `finishedRuns` and the Worker bundles none of `driveRuns`. Every answer is the full store's.
 */
export function workerFinishedRunStore(context: WorkerRunStoreContext): WorkerRunStore {
  return {
    host: perNamespace((namespace) => withRunIndex(createFinishedDurableObjectRunHost(namespace), createDurableObjectRunIndex(namespace))),
    ToolRunObject: createRunObjectClass((engine) => createRunEngine({ ...engine, drive: finishedRuns }), context.options),
  }
}
