/**
 * `make` at most once per Durable Object namespace binding: what is built over a namespace (a
 * store, a host) is built on its first request and reused by the requests after it, for as long
 * as the binding lives (a WeakMap, so nothing outlives it).
 */
export function perNamespace<T>(make: (namespace: DurableObjectNamespace) => T): (namespace: DurableObjectNamespace) => T {
  const made = new WeakMap<DurableObjectNamespace, T>()
  return (namespace) => {
    let value = made.get(namespace)
    if (value === undefined) made.set(namespace, (value = make(namespace)))
    return value
  }
}
