import type { CompiledSchema } from '../schema/compile-schema.ts'
import { RequestContext } from '../tool/request-context.ts'

/** A request context a caller passed: toolroute's, Mastra's (the same API), or a `Map`. */
export interface RequestContextLike {
  get(key: string): unknown
  set(key: string, value: unknown): unknown
  delete(key: string): boolean
  clear?(): void
  entries(): Iterable<[string, unknown]>
}

/** Duck-typed, so a Mastra `RequestContext` (or a `Map`) passed during a migration is read as one. */
export function isRequestContextLike(value: unknown): value is RequestContextLike {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Record<string, unknown>
  return typeof candidate.get === 'function' && typeof candidate.set === 'function' && typeof candidate.entries === 'function'
}

const sourceKey = Symbol.for('toolroute.request-context.source')

/** The caller's own context behind a parsed view, so a forwarded view is validated from the raw values. */
function requestContextSource(context: RequestContextLike): RequestContextLike {
  let current = context as RequestContextLike & { [sourceKey]?: RequestContextLike }
  while (current[sourceKey]) current = current[sourceKey]
  return current
}

/** The raw values of a caller's context, as a plain object (what `requestContextSchema` validates). */
export function requestContextValues(context: RequestContextLike): Record<string, unknown> {
  return Object.fromEntries(requestContextSource(context).entries())
}

type Encoder = (values: Record<string, unknown>) => { success: boolean; data?: unknown }

/**
 * What a tool with a `requestContextSchema` sees on a direct call: the parsed values, while the
 * caller's context keeps its raw ones. A write goes through to it as is when the schema accepts it
 * as input, else encoded back (`safeEncode`), as in Mastra; else it is refused.
 */
export class ParsedRequestContext extends RequestContext<any> {
  declare readonly [sourceKey]: RequestContextLike
  readonly #schema: CompiledSchema

  constructor(source: RequestContextLike, parsed: Record<string, unknown>, schema: CompiledSchema) {
    super({ ...requestContextValues(source), ...parsed })
    Object.defineProperty(this, sourceKey, { value: requestContextSource(source) })
    this.#schema = schema
  }

  #rawValue(key: string, value: unknown): unknown {
    const source = this[sourceKey]
    if (this.#schema.validate({ ...requestContextValues(source), [key]: value }).ok) return value
    const encode = (this.#schema.source as { safeEncode?: Encoder }).safeEncode
    if (typeof encode === 'function') {
      try {
        const encoded = encode.call(this.#schema.source, { ...this.all, [key]: value })
        if (encoded.success && typeof encoded.data === 'object' && encoded.data !== null && Object.hasOwn(encoded.data, key)) {
          return (encoded.data as Record<string, unknown>)[key]
        }
      } catch {
        // Not encodable: refused below.
      }
    }
    throw new TypeError(
      `Unable to persist request context key "${key}": the value is not valid schema input and cannot be encoded from the schema output.`,
    )
  }

  override set(key: string, value: unknown): void {
    this[sourceKey].set(key, this.#rawValue(key, value))
    super.set(key, value)
  }

  override setRaw(key: string, value: unknown): void {
    this.set(key, value)
  }

  override delete(key: string): boolean {
    this[sourceKey].delete(key)
    return super.delete(key)
  }

  override deleteRaw(key: string): boolean {
    return this.delete(key)
  }

  override clear(): void {
    super.clear()
    const source = this[sourceKey]
    if (typeof source.clear === 'function') source.clear()
    else for (const [key] of [...source.entries()]) source.delete(key)
  }
}
