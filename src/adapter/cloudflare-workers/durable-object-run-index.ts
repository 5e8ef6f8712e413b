import type { RunIndexEntry, RunIndexPage, RunQuery } from '../../runs/run-index.ts'
import type { DurableObjectRunIndex } from './durable-object-index-outbox.ts'
import { fromRpc, type RpcResult } from './segment-stream.ts'

/** The RPC methods of `ToolRunObject` that hold a principal's index. */
type IndexObjectStub = { indexPut(entry: RunIndexEntry, version?: number): Promise<RpcResult<void>>; indexRemove(runId: string): Promise<RpcResult<void>>; indexList(query: RunQuery): Promise<RpcResult<RunIndexPage>> }

/**
 * A `RunIndex` over the runs namespace: a principal's index is the object named `index:<principal>`
 * (the same `ToolRunObject` class), so no binding is added and each principal's list is serialised by its object.
 */
export function createDurableObjectRunIndex(namespace: DurableObjectNamespace): DurableObjectRunIndex {
  const stub = (principal: string) => namespace.get(namespace.idFromName(`index:${principal}`)) as unknown as IndexObjectStub
  return {
    put: async (principal, entry, version?: number) => fromRpc(await stub(principal).indexPut(entry, version)),
    remove: async (principal, entry) => fromRpc(await stub(principal).indexRemove(entry.runId)),
    list: async (principal, query) => fromRpc(await stub(principal).indexList(query)),
  }
}
