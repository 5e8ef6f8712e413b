/**
 * The headers of the wire contract (SPEC §2, §3, §9), lower-case as `Headers` reports them.
 * Request: `requestContext`, `toolCallId`, `idempotencyKey`, `lastEventId`. Response: `runId`,
 * `toolCallId`, `idempotentReplayed`, `uiMessageStream` (on every SSE answer, value `v1`).
 */
export const headerNames = {
  requestContext: 'x-request-context',
  toolCallId: 'x-tool-call-id',
  runId: 'x-run-id',
  idempotencyKey: 'idempotency-key',
  idempotentReplayed: 'idempotent-replayed',
  lastEventId: 'last-event-id',
  uiMessageStream: 'x-vercel-ai-ui-message-stream',
} as const

export type HeaderName = (typeof headerNames)[keyof typeof headerNames]
