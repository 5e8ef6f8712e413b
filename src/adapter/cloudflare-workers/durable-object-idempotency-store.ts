import type { IdempotencyBegin, IdempotencyClaim, IdempotencyStore, IdempotentAnswer } from '../../idempotency/idempotency-store.ts'

/** The RPC surface of the idempotency object, as the Worker sees it. */
interface IdempotencyObjectStub {
  begin(fingerprint: string, claim?: IdempotencyClaim): Promise<IdempotencyBegin>
  renew(fingerprint: string): Promise<boolean>
  complete(fingerprint: string, answer: IdempotentAnswer): Promise<void>
  release(fingerprint: string): Promise<void>
}

/**
 * `IdempotencyStore` over a Durable Object namespace: each (principal, key) lives in the object
 * named by both, so every request with one key reaches the one object that serialises them.
 */
export function createDurableObjectIdempotencyStore(namespace: DurableObjectNamespace): IdempotencyStore {
  const stub = (scope: { principal: string | null; key: string }) =>
    namespace.get(namespace.idFromName(JSON.stringify([scope.principal, scope.key]))) as unknown as IdempotencyObjectStub
  return {
    begin: (scope, fingerprint, claim) => stub(scope).begin(fingerprint, claim),
    renew: (scope, fingerprint) => stub(scope).renew(fingerprint),
    complete: (scope, fingerprint, answer) => stub(scope).complete(fingerprint, answer),
    release: (scope, fingerprint) => stub(scope).release(fingerprint),
  }
}
