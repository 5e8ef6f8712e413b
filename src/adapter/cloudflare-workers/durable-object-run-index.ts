import type { RunIndex, RunIndexPage } from '../../runs/run-index.ts'
import { fromRpc, type RpcResult } from './segment-stream.ts'

interface IndexObjectStub {
  indexAdd(runId: string, createdAt: string): Promise<RpcResult<null>>
  indexList(cursor: string | undefined, limit: number): Promise<RpcResult<RunIndexPage>>
}

/**
 * A `RunIndex` over the runs namespace: a principal's index is the object named
 * `index:<principal>` (the same `ToolRunObject` class, its `indexAdd` / `indexList` methods), so no
 * binding is added and each principal's list is serialised by its own object.
 */
export function createDurableObjectRunIndex(namespace: DurableObjectNamespace): RunIndex {
  const stub = (principal: string) => namespace.get(namespace.idFromName(`index:${principal}`)) as unknown as IndexObjectStub
  return {
    async add(principal, runId, createdAt) {
      fromRpc(await stub(principal).indexAdd(runId, createdAt))
    },
    async list(principal, { cursor, limit }) {
      return fromRpc(await stub(principal).indexList(cursor, limit))
    },
  }
}
