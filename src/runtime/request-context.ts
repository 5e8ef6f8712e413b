/**
 * Values that describe who is calling and on whose behalf (user id, tenant, locale…), as in
 * Mastra's `RequestContext`. Over HTTP it holds the values validated against the tool's
 * `requestContextSchema`; a direct call may pass a plain object instead.
 *
 * @example
 * const context = new RequestContext({ userId: 'u_1' })
 * context.get('userId') // 'u_1'
 */
export class RequestContext<Values extends Record<string, any> = Record<string, unknown>> {
  readonly #values: Map<string, unknown>

  constructor(init?: Partial<Values> | Iterable<readonly [string, unknown]>) {
    this.#values = new Map(
      init === undefined ? [] : Symbol.iterator in Object(init) ? (init as Iterable<[string, unknown]>) : Object.entries(init),
    )
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

  keys(): IterableIterator<string> {
    return this.#values.keys()
  }

  values(): IterableIterator<unknown> {
    return this.#values.values()
  }

  entries(): IterableIterator<[string, unknown]> {
    return this.#values.entries()
  }

  forEach(callback: (value: unknown, key: string) => void): void {
    this.#values.forEach(callback)
  }

  get size(): number {
    return this.#values.size
  }

  [Symbol.iterator](): IterableIterator<[string, unknown]> {
    return this.#values.entries()
  }

  /** A plain object of the values (what `JSON.stringify` writes). */
  toJSON(): Values {
    return Object.fromEntries(this.#values) as Values
  }

  /** Accepts a `RequestContext`, a plain object or nothing, as a direct call may pass any. */
  static from<V extends Record<string, any>>(value: RequestContext<V> | Partial<V> | undefined | null): RequestContext<V> {
    if (value instanceof RequestContext) return value
    return new RequestContext<V>(value ?? undefined)
  }
}
