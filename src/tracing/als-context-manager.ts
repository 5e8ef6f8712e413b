import { AsyncLocalStorage } from 'node:async_hooks'
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api'

/**
 * The active OpenTelemetry context kept in an `AsyncLocalStorage` (Node, Deno, and workerd with
 * `nodejs_compat`), so a span made inside `execute` with `@opentelemetry/api` nests under the call's.
 */
export class AlsContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>()

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args))
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target
    const manager = this
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => (target as (...a: unknown[]) => unknown).apply(this, args))
    } as T
  }

  enable(): this {
    return this
  }

  disable(): this {
    this.storage.disable()
    return this
  }
}
