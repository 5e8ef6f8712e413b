import type { Context } from 'hono'
import { readBody } from '../caller/read-body.ts'
import { errorMessage, outputNotJsonMessage, ToolrouteError } from '../errors/toolroute-error.ts'
import { createEventProjector } from '../runs/create-event-projector.ts'
import { fingerprintOf } from '../idempotency/fingerprint.ts'
import type { IdempotencyScope, IdempotencyStore, IdempotentAnswer } from '../idempotency/idempotency-store.ts'
import { callJson } from '../runtime/call-json.ts'
import type { CallEnding, CallIds } from '../runtime/start-call.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { callIdsOf, callTool, type CallToolArgs, type ResponseMode } from './call-tool.ts'
import { sseResponse } from './sse-response.ts'
import { idHeaders } from './json-answer-of.ts'
import { headerNames } from '../protocol/header-names.ts'

/** Stripe's limit; the IETF draft sets none. */
const maxKeyLength = 255

export interface IdempotentCallArgs extends Omit<CallToolArgs, 'source' | 'liveInput' | 'storeRuns' | 'onEnding' | 'principal' | 'ids'> {
  /** Known before anything runs: it scopes the key. */
  principal: string | null
  key: string
  store: IdempotencyStore
  maxBytes: number
  /** The body, when read already (Mastra's execute: its `data`); else read from the request. */
  body?: Uint8Array | undefined
}

/**
 * `POST /tools/:toolId` with an `Idempotency-Key` (SPEC §9): the body is fingerprinted first, the first
 * request runs with its run stored, a repeat replays it. Refused input or an unstored run releases the key;
 * a failed tool keeps its 5xx, as Stripe does. The lease is renewed while it runs (SPEC §12).
 */
export async function idempotentCall(c: Context, args: IdempotentCallArgs): Promise<Response> {
  const { key, store, mode } = args
  const { tool } = args.call
  if (key.length === 0 || key.length > maxKeyLength) {
    throw new ToolrouteError('IDEMPOTENCY_KEY_INVALID', `The Idempotency-Key header must be 1 to ${maxKeyLength} characters, got ${key.length}`)
  }
  const read = args.body ? { ok: true as const, body: args.body } : await readBody(c.req.raw, { maxBytes: args.maxBytes, as: 'bytes' })
  if (!read.ok) throw read.error
  const fingerprint = await fingerprintOf({ toolId: tool.id, principal: args.principal, requestContext: args.call.requestContext }, read.body)
  const scope: IdempotencyScope = { principal: args.principal, key }
  const ids = callIdsOf(args.headers, c.get('callTrace')?.ids)
  const begun = await store.begin(scope, fingerprint, { ...ids, toolId: tool.id, principal: args.principal })
  switch (begun.state) {
    case 'conflict':
      throw new ToolrouteError('IDEMPOTENCY_CONFLICT', `A request with Idempotency-Key ${JSON.stringify(key)} is still being processed`)
    case 'reused':
      throw new ToolrouteError('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${JSON.stringify(key)} was already used with another request`)
    case 'replay':
      return replay(c, begun.answer, ids.traceId, tool, mode, args.runs(), args.principal)
  }
  const renewing = begun.renewEveryMs && store.renew ? renewKey(() => store.renew!(scope, fingerprint), begun.renewEveryMs) : undefined
  // The answer the key settled on (none when it was released): a JSON first request answers it too.
  let recorded: Promise<IdempotentAnswer | undefined> = Promise.resolve(undefined)
  const onEnding = (ending: Promise<CallEnding<RunRecord>>) => {
    recorded = ending
      .then(
        (end): Promise<IdempotentAnswer | undefined> =>
          end.kind === 'input-error' ? released(store.release(scope, fingerprint)) : settleKey(store, scope, fingerprint, answerOf(end, ids, tool)),
        () => released(store.release(scope, fingerprint)),
      )
      .finally(() => renewing?.stop())
  }
  // A JSON answer is the recorded one, encoded once (by `answerOf`): the call's own is not written.
  const calling = callTool(c, { ...args, ids, source: { text: new TextDecoder().decode(read.body) }, storeRuns: 'all', liveInput: false, onEnding, ...(mode.sse ? {} : { answer: unwritten }) })
  // A call that failed before its first step began has no ending to stop the renewals.
  calling.catch(() => renewing?.stop())
  if (!mode.sse) {
    // A JSON repeat that arrives right after this answer must find it recorded.
    const answered = await calling.catch((error: unknown) => ({ error }))
    const answer = await recorded
    if (answer) return c.body(answer.body, answer.status as 200, { ...idHeaders(ids), 'content-type': 'application/json' })
    if ('error' in answered) throw answered.error
    return answered
  }
  args.defer(recorded.catch(() => {}))
  return calling
}

const unwritten = () => new Response(null)
const released = (release: Promise<void>) => release.then(() => undefined)

/** Records `answer`; one the store refuses (a limit) is replaced by the failure naming why: the key settles (SPEC §9). */
async function settleKey(store: IdempotencyStore, scope: IdempotencyScope, fingerprint: string, answer: IdempotentAnswer): Promise<IdempotentAnswer> {
  try {
    await store.complete(scope, fingerprint, answer)
    return answer
  } catch (error) {
    const failed = failureAnswer(new ToolrouteError('EXECUTION_FAILED', `The answer cannot be kept for its Idempotency-Key: ${errorMessage(error)}`), answer)
    await store.complete(scope, fingerprint, failed)
    return failed
  }
}

const failureAnswer = (error: ToolrouteError, { runId, toolCallId, traceId }: IdempotentAnswer | CallIds): IdempotentAnswer => ({ status: error.status, body: JSON.stringify(error.toJSON()), runId, toolCallId, traceId })

/** Renews a key's lease every `everyMs`, one renewal at a time, until stopped or refused (the lease lapsed). */
function renewKey(renew: () => Promise<boolean>, everyMs: number): { stop(): void } {
  let renewing = false
  const timer = setInterval(async () => {
    if (renewing) return
    renewing = true
    const held = await renew().catch(() => true)
    renewing = false
    if (!held) clearInterval(timer)
  }, everyMs)
  return { stop: () => clearInterval(timer) }
}

/** What an ending answered (`callJson`, as the first request's answer or its error's), to replay. */
export function answerOf(end: CallEnding<RunRecord>, ids: CallIds, tool: AnyTool): IdempotentAnswer {
  const json = callJson(ids, end, tool)
  if (!json.ok) return failureAnswer(json.error, ids)
  try {
    return { status: json.status, body: JSON.stringify(json.body), ...ids }
  } catch (notJson) {
    return failureAnswer(new ToolrouteError('EXECUTION_FAILED', outputNotJsonMessage, { cause: notJson }), ids)
  }
}

/** A repeat's answer: the first's JSON as it was, or its run's events from the first; the first's trace, else (a key settled as interrupted) the repeat's. */
async function replay(c: Context, answer: IdempotentAnswer, traceId: string, tool: AnyTool, mode: ResponseMode, runs: RunHost, principal: string | null): Promise<Response> {
  const headers = { ...idHeaders({ ...answer, traceId: answer.traceId ?? traceId }), [headerNames.idempotentReplayed]: 'true' }
  if (!mode.sse) return c.body(answer.body, answer.status as 200, { ...headers, 'content-type': 'application/json' })
  const events = await runs.follow(answer.runId, { principal, after: 0, signal: c.req.raw.signal })
  return sseResponse(events, createEventProjector(tool, mode.view), { ...mode, headers })
}
