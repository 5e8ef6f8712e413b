/** `make` at most once per namespace binding (Durable Objects, KV), reused for as long as the binding lives. */
export function perNamespace<N extends object, T>(make: (namespace: N) => T): (namespace: N) => T {
  const made = new WeakMap<N, T>()
  return (namespace) => {
    let value = made.get(namespace)
    if (value === undefined) made.set(namespace, (value = make(namespace)))
    return value
  }
}
