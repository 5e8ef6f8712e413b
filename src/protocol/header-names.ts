/**
 * The headers of the wire contract (SPEC §2, §3, §9), lower-case as `Headers` reports them.
 * Request: `requestContext`, `toolCallId`, `idempotencyKey`, `lastEventId`. Response: `runId`,
 * `toolCallId`, `idempotentReplayed`, `uiMessageStream` (on every SSE answer, value `v1`). `traceparent` in,
 * `traceId` out (SPEC §17).
 */
export const headerNames = {
  requestContext: 'x-request-context',
  toolCallId: 'x-tool-call-id',
  runId: 'x-run-id',
  idempotencyKey: 'idempotency-key',
  idempotentReplayed: 'idempotent-replayed',
  lastEventId: 'last-event-id',
  uiMessageStream: 'x-vercel-ai-ui-message-stream',
  traceparent: 'traceparent',
  traceId: 'x-trace-id',
} as const

/**
 * A JSON value as header text: characters outside ASCII escaped (`\uXXXX` is still JSON), since
 * header values must be bytes and a name like "Zoë" would otherwise make `fetch` throw.
 */
export function jsonHeader(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
