import { errorMessage } from '../errors/toolroute-error.ts'
import type { ToolObserve } from '../tool/tool-execution-context.ts'
import type { ToolCallScope } from './tool-call-scope.ts'

/** Runs a lifecycle hook; one that throws is logged and never fails the call (SPEC §1). */
export async function callHook<A>(
  name: string,
  hook: ((argument: A) => unknown) | undefined,
  argument: A,
  observe: ToolObserve,
): Promise<void> {
  if (!hook) return
  try {
    await hook(argument)
  } catch (error) {
    observe.log('warn', `${name} hook failed: ${errorMessage(error)}`, { hook: name })
  }
}

/** A hook's argument: `fields` and the call's `abortSignal`, read only when the hook reads it (`CallAbort`). */
export function withAbortSignal<T extends object>(scope: ToolCallScope, fields: T): T & { abortSignal: AbortSignal | undefined } {
  return Object.defineProperty(fields, 'abortSignal', { get: () => scope.signal, enumerable: true }) as T & { abortSignal: AbortSignal | undefined }
}
