import { createMemoryRunIndex } from '../../runs/create-memory-run-index.ts'
import { createRunEngine } from '../../runs/create-run-engine.ts'
import { driveRuns } from '../../runs/drive-runs.ts'
import type { RunHost } from '../../runs/run-host.ts'
import type { RunLimits } from '../../runs/run-limits.ts'
import type { RunStore } from '../../runs/run-store.ts'
import { withRunIndex } from '../../runs/with-run-index.ts'
import type { AnyTool } from '../../tool/tool-types.ts'
import { createMemoryRunStore } from './memory-run-store.ts'

/** Runs in this process's memory, listed per principal: `toolroute/server`'s default, passed by its composer. */
export function createMemoryRunHost(tools: ReadonlyMap<string, AnyTool>, options: { runLimits?: RunLimits; storeWith?: (store: RunStore) => RunStore; tracer?: Parameters<typeof driveRuns>[1] } = {}): RunHost {
  const index = createMemoryRunIndex()
  return withRunIndex(createRunEngine({ store: (options.storeWith ?? ((store) => store))(createMemoryRunStore()), index, drive: driveRuns(tools, options.tracer), runLimits: options.runLimits }), index)
}
