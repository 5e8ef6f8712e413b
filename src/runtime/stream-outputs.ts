import { ExecutionContext } from './execution-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'

/** Whether `execute` handed back an async iterable (an `async function*`): the AI SDK's own test. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value != null && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
}

/** What `execute` returned, an async generator driven to its last yield; anything else as it is. */
export function resultOf(scope: ToolCallScope, context: ExecutionContext, returned: unknown): unknown {
  return isAsyncIterable(returned) ? streamOutputs(scope, context, returned) : returned
}

/**
 * Drives an async generator `execute` (SPEC §8): each yield is a preliminary `tool-output-available`,
 * and the last one the final output (a `return` value is ignored, as in the AI SDK's `executeTool`).
 * Once the execution has ended (an abort), the generator is stopped and its yields dropped.
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
