import { errorMessage } from '../errors/toolroute-error.ts'
import type { ToolObserve } from '../tool/tool-types.ts'

/**
 * Runs a lifecycle hook. A hook that throws is logged and never fails the call (SPEC §1):
 * hooks observe a call, they do not own it.
 */
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
