// The V8 inspector of a Worker on workerd (test/e2e/direct-workerd.ts with `inspectorPort`),
// used by the load test to tell retained memory from the allocator's high-water mark: the
// isolate's memory after a full collection. (workerd answers no `HeapProfiler.collectGarbage`;
// with `--expose-gc` the collection is `gc()` evaluated in the Worker's context.)

export interface WorkerdInspector {
  /**
   * What the isolate holds after a full collection (MiB): its used JS heap, the embedder's (workerd's
   * objects V8 traces) and the backing stores of its ArrayBuffers, so bytes kept as a `Uint8Array`
   * count as much as bytes kept as a string.
   */
  heapAfterGcMib(): Promise<number>
  close(): void
}

export async function connectInspector(port: number): Promise<WorkerdInspector> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { title: string; webSocketDebuggerUrl: string }[]
  // Miniflare names the user's Worker `core:user:<name>`; its own workers are named otherwise.
  const target = targets.find((candidate) => candidate.title.includes('core:user:'))!
  const socket = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true })
    socket.addEventListener('error', reject, { once: true })
  })
  let nextId = 0
  let contextId: string | undefined
  const pending = new Map<number, (message: { result?: any; error?: { message: string } }) => void>()
  socket.addEventListener('message', ({ data }) => {
    const message = JSON.parse(String(data))
    if (message.method === 'Runtime.executionContextCreated') contextId = message.params.context.uniqueId
    if (message.id !== undefined) pending.get(message.id)?.(message)
  })
  const send = async (method: string, params: object = {}) => {
    const id = ++nextId
    const message = await new Promise<{ result?: any; error?: { message: string } }>((resolve) => (pending.set(id, resolve), socket.send(JSON.stringify({ id, method, params }))))
    if (message.error) throw new Error(`${method}: ${message.error.message}`)
    return message.result
  }
  await send('Runtime.enable')
  return {
    async heapAfterGcMib() {
      const collected = await send('Runtime.evaluate', { uniqueContextId: contextId, expression: 'typeof gc === "function" ? (gc(), "collected") : "no gc"' })
      if (collected.result.value !== 'collected') throw new Error('workerd runs without --expose-gc')
      const usage = (await send('Runtime.getHeapUsage')) as { usedSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number }
      if (usage.backingStorageSize === undefined) throw new Error('this V8 reports no backingStorageSize')
      return (usage.usedSize + (usage.embedderHeapUsedSize ?? 0) + usage.backingStorageSize) / 1024 / 1024
    },
    close: () => socket.close(),
  }
}
