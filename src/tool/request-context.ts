import { isJson } from '../errors/toolroute-error.ts'

/** Whether `toJSON` may keep a value: what `JSON.stringify` can write (no functions, symbols, cycles, bigints). */
const isSerializable = (value: unknown): boolean => typeof value !== 'function' && typeof value !== 'symbol' && isJson(value)

/**
 * Values that describe who is calling and on whose behalf (user id, tenant, locale…), with the
 * whole API of Mastra's `RequestContext`. Over HTTP it holds the values validated against the
 * tool's `requestContextSchema`; a direct call may pass one, or a plain object.
 *
 * @example
 * const context = new RequestContext({ userId: 'u_1' })    // or new RequestContext([['userId', 'u_1']])
 * context.get('userId') // 'u_1'
 * context.size()        // 1
 */
export class RequestContext<Values extends Record<string, any> = Record<string, unknown>> {
  readonly #values: Map<string, unknown>

  constructor(init?: Partial<Values> | Iterable<readonly [string, unknown]> | null) {
    const iterable = init == null || typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function'
    this.#values = new Map(iterable ? (init as Iterable<[string, unknown]> | null | undefined) : Object.entries(init))
  }

  get<K extends keyof Values & string>(key: K): Values[K] {
    return this.#values.get(key) as Values[K]
  }
  set<K extends keyof Values & string>(key: K, value: Values[K]): void {
    this.#values.set(key, value)
  }
  has(key: keyof Values & string): boolean {
    return this.#values.has(key)
  }
  delete(key: keyof Values & string): boolean {
    return this.#values.delete(key)
  }

  /** A key the `Values` type does not declare (middleware keys, for instance). */
  getRaw(key: string): unknown {
    return this.#values.get(key)
  }
  setRaw(key: string, value: unknown): void {
    this.#values.set(key, value)
  }
  hasRaw(key: string): boolean {
    return this.#values.has(key)
  }
  deleteRaw(key: string): boolean {
    return this.#values.delete(key)
  }

  clear(): void {
    this.#values.clear()
  }

  keys(): MapIterator<string> {
    return this.#values.keys()
  }
  values(): MapIterator<unknown> {
    return this.#values.values()
  }
  entries(): MapIterator<[string, unknown]> {
    return this.#values.entries()
  }

  forEach(callback: (value: unknown, key: string, map: Map<string, unknown>) => void): void {
    this.#values.forEach(callback)
  }

  /** How many values it holds: a method, as in Mastra. */
  size(): number {
    return this.#values.size
  }

  /** A fresh plain-object copy of every value, for destructuring (`const { userId } = context.all`). */
  get all(): Values {
    return Object.fromEntries(this.#values) as Values
  }

  /** A plain object of the values `JSON.stringify` can write (functions, symbols and cycles are left out). */
  toJSON(): Values {
    const result: Record<string, unknown> = {}
    for (const [key, value] of this.#values) if (isSerializable(value)) result[key] = value
    return result as Values
  }

  /** Accepts a `RequestContext`, a plain object or nothing, as a direct call may pass any. */
  static from<V extends Record<string, any>>(value: RequestContext<V> | Partial<V> | undefined | null): RequestContext<V> {
    if (value instanceof RequestContext) return value
    return new RequestContext<V>(value ?? undefined)
  }
}
