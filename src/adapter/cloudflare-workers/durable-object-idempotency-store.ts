import type { IdempotencyStore } from '../../idempotency/idempotency-store.ts'
import type { IdempotencyObject } from './create-idempotency-object.ts'

/**
 * `IdempotencyStore` over a Durable Object namespace: each (principal, key) lives in the object
 * named by both, so every request with one key reaches the one object that serialises them.
 */
export function createDurableObjectIdempotencyStore(namespace: DurableObjectNamespace): IdempotencyStore {
  const stub = (scope: { principal: string | null; key: string }) =>
    namespace.get(namespace.idFromName(JSON.stringify([scope.principal, scope.key]))) as unknown as IdempotencyObject
  return {
    begin: (scope, fingerprint, claim) => stub(scope).begin(fingerprint, claim),
    renew: (scope, fingerprint) => stub(scope).renew(fingerprint),
    complete: (scope, fingerprint, answer) => stub(scope).complete(fingerprint, answer),
    release: (scope, fingerprint) => stub(scope).release(fingerprint),
  }
}
