import { createMemoryRunIndex } from '../../runs/create-memory-run-index.ts'
import { createRunEngine } from '../../runs/create-run-engine.ts'
import { driveRuns } from '../../runs/drive-runs.ts'
import type { RunHost } from '../../runs/run-host.ts'
import type { RunLimits } from '../../runs/run-limits.ts'
import { withRunIndex } from '../../runs/with-run-index.ts'
import type { AnyTool } from '../../tool/tool-types.ts'
import { createMemoryRunStore } from './memory-run-store.ts'

/**
 * Runs in this process's memory, listed per principal: the default of `toolroute/server`'s
 * `createToolApp` (Node, tests, one process). The app's own composer passes it, not the Hono app,
 * so a Worker that keeps no runs bundles none of the engine (SPEC §11).
 */
export function createMemoryRunHost(tools: ReadonlyMap<string, AnyTool>, options: { runLimits?: RunLimits } = {}): RunHost {
  return withRunIndex(createRunEngine({ store: createMemoryRunStore(), drive: driveRuns(tools), ...options }), createMemoryRunIndex())
}
