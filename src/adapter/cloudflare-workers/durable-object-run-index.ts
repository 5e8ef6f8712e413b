import type { DurableObjectRunIndex } from './durable-object-index-outbox.ts'
import type { ToolRunObject } from './create-run-object-class.ts'
import { fromRpc } from './segment-stream.ts'

/**
 * A `RunIndex` over the runs namespace: a principal's index is the object named `index:<principal>`
 * (the same `ToolRunObject` class), so no binding is added and each principal's list is serialised by its object.
 */
export function createDurableObjectRunIndex(namespace: DurableObjectNamespace): DurableObjectRunIndex {
  type IndexObjectStub = Pick<ToolRunObject, 'indexPut' | 'indexRemove' | 'indexList'>
  const stub = (principal: string) => namespace.get(namespace.idFromName(`index:${principal}`)) as unknown as IndexObjectStub
  return {
    put: async (principal, entry, version?: number) => fromRpc(await stub(principal).indexPut(entry, version)),
    remove: async (principal, entry) => fromRpc(await stub(principal).indexRemove(entry.runId)),
    list: async (principal, query) => fromRpc(await stub(principal).indexList(query)),
  }
}
