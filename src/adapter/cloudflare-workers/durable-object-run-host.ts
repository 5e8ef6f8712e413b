import type { SequencedEvent } from '../../protocol/tool-event.ts'
import type { RunCaller, RunHost, RunSegment } from '../../runs/run-host.ts'
import { ToolrouteError } from '../../errors/toolroute-error.ts'
import { decodeSegmentStream, fromRpc } from './segment-stream.ts'
import type { RpcSegment, ToolRunObject } from './create-run-object-class.ts'

/** The run object's RPC methods the Worker calls. */
type RunObjectStub = Pick<ToolRunObject, 'open' | 'approve' | 'decline' | 'resume' | 'cancel' | 'answer' | 'abortStep' | 'get' | 'follow'>
type StepAnswer = Extract<RpcSegment, { ok: true }>['value']
type SegmentOf = (result: StepAnswer, caller: RunCaller, host: RunHost, stub: (runId: string) => RunObjectStub) => RunSegment

/** Run ids are UUIDs; anything else cannot name a run and never reaches an object. */
const runIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `RunHost` over a Durable Object namespace: each run lives in the object named by its run id,
 * so every request about one run reaches the one object that serialises it.
 */
export function createDurableObjectRunHost(namespace: DurableObjectNamespace): RunHost {
  return durableObjectRunHost(namespace, segmentOf)
}

/** The same host over `workerFinishedRunStore`'s objects, whose engine refuses every step (its runs are settled). */
export function createFinishedDurableObjectRunHost(namespace: DurableObjectNamespace): RunHost {
  return durableObjectRunHost(namespace, (result) => {
    throw new ToolrouteError('EXECUTION_FAILED', `Run ${result.run.runId} took a step, but this Worker keeps only finished runs`)
  })
}

/** A step's answer as its caller reads it: ended in the call (`done`), a background run's, or a stream. */
const segmentOf: SegmentOf = (result, caller, host, stub) => {
  const { run, after } = result
  if (result.done) {
    const { events, run: settled } = result.done
    return { run, after, events: (async function* () { yield* events })(), settled: Promise.resolve(settled), abort() {} }
  }
  if (!result.stream) {
    // A background step: its events are followed only if someone reads them (SSE), so a JSON
    // caller opens no stream at all.
    let opened: AsyncIterator<SequencedEvent> | undefined
    const events: AsyncIterable<SequencedEvent> = {
      [Symbol.asyncIterator]: () => {
        let source: Promise<AsyncIterator<SequencedEvent>> | undefined
        const open = () => (source ??= host.follow(run.runId, { principal: caller.principal, after }).then((iterable) => (opened = iterable[Symbol.asyncIterator]())))
        return {
          next: async () => (await open()).next(),
          return: async () => (source ? ((await open()).return?.() ?? { done: true, value: undefined }) : { done: true, value: undefined }),
        }
      },
    }
    return { run, after, events, settled: Promise.resolve(run), abort: () => void opened?.return?.() }
  }
  const { events, settled, cancel } = decodeSegmentStream(result.stream)
  // Cancelling an RPC stream does not reach the object that writes it (workerd), so the step is aborted
  // by a call of its own, naming where it began (a later step is never touched), sent once however many
  // signs of the caller leaving arrive.
  let aborting: Promise<void> | undefined
  const abort = (reason?: unknown) => {
    if (aborting) return aborting
    cancel()
    const message = reason instanceof Error ? reason.message : 'The caller disconnected'
    return (aborting = stub(run.runId)
      .abortStep(run.runId, { principal: caller.principal, after, message })
      .then(() => undefined, () => undefined))
  }
  return { run, after, events, settled, abort }
}

function durableObjectRunHost(namespace: DurableObjectNamespace, segment: SegmentOf): RunHost {
  const stub = (runId: string): RunObjectStub => {
    if (!runIdPattern.test(runId)) {
      return new Proxy({} as RunObjectStub, {
        get: () => async () => ({ ok: false, error: { code: 'RUN_NOT_FOUND', message: `Run ${runId} not found` } }),
      })
    }
    return namespace.get(namespace.idFromName(runId)) as unknown as RunObjectStub
  }
  const host: RunHost = {
    open: async (run, events) => fromRpc(await stub(run.runId).open(run, [...events])),
    approve: async (runId, caller) => segment(fromRpc(await stub(runId).approve(runId, caller)), caller, host, stub),
    decline: async (runId, caller) => segment(fromRpc(await stub(runId).decline(runId, caller)), caller, host, stub),
    resume: async (runId, caller) => segment(fromRpc(await stub(runId).resume(runId, caller)), caller, host, stub),
    cancel: async (runId, caller) => fromRpc(await stub(runId).cancel(runId, caller)),
    answer: async (runId, caller) => fromRpc(await stub(runId).answer(runId, caller)),
    get: async (runId, caller) => fromRpc(await stub(runId).get(runId, caller)),
    async follow(runId, caller) {
      const { signal, ...rest } = caller
      const decoded = decodeSegmentStream(fromRpc(await stub(runId).follow(runId, rest)))
      signal?.addEventListener('abort', decoded.cancel, { once: true })
      return decoded.events
    },
  }
  return host
}
