import { ExecutionContext } from './execution-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'

/** Whether `execute` handed back an async iterable (an `async function*`): the AI SDK's own test. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value != null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
}

/**
 * What `execute` returned, with an async generator driven to its end: its result is then the
 * last value it yielded. Anything else is handed back as it is (a promise, a value).
 */
export function resultOf(scope: ToolCallScope, context: ExecutionContext, returned: unknown): unknown {
  return isAsyncIterable(returned) ? streamOutputs(scope, context, returned) : returned
}

/**
 * Drives an async generator `execute` (SPEC §8, the AI SDK's preliminary results): each value
 * yielded is a `tool-output-available` with `preliminary: true`, and the last one is the final
 * output, as in the AI SDK's `executeTool` (which reads the generator with `for await`, so a
 * `return` value is ignored). Preliminary outputs are not validated; the final one is, by the
 * caller. Once the execution has ended (an abort), the generator is stopped (its `finally`
 * runs) and what it yields is dropped.
 */
export async function streamOutputs(scope: ToolCallScope, context: ExecutionContext, outputs: AsyncIterable<unknown>): Promise<unknown> {
  const iterator = outputs[Symbol.asyncIterator]()
  let last: unknown
  while (true) {
    const next = await iterator.next()
    if (next.done) return last
    if (ExecutionContext.hasEnded(context)) {
      await iterator.return?.()
      return last
    }
    last = next.value
    if (scope.emit) scope.emit({ type: 'tool-output-available', toolCallId: scope.toolCallId, output: last, preliminary: true })
  }
}
