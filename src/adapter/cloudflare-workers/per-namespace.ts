/** `make` at most once per Durable Object namespace binding, reused for as long as the binding lives. */
export function perNamespace<T>(make: (namespace: DurableObjectNamespace) => T): (namespace: DurableObjectNamespace) => T {
  const made = new WeakMap<DurableObjectNamespace, T>()
  return (namespace) => {
    let value = made.get(namespace)
    if (value === undefined) made.set(namespace, (value = make(namespace)))
    return value
  }
}
