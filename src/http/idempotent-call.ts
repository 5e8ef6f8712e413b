import type { Context } from 'hono'
import { readBodyBytes } from '../caller/read-body-bytes.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { createEventProjector } from '../events/create-event-projector.ts'
import { fingerprintOf } from '../idempotency/fingerprint.ts'
import type { IdempotencyScope, IdempotencyStore, IdempotentAnswer } from '../idempotency/idempotency-store.ts'
import type { ApprovalRequiredResult, CompletedResult, RunningResult, SuspendedResult } from '../protocol/call-result.ts'
import type { FirstStepEnding } from '../runs/run-first-step.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { callIdsOf, callTool, type CallToolArgs, type ResponseMode } from './call-tool.ts'
import { sseResponse } from './sse-response.ts'
import { headerNames } from '../protocol/header-names.ts'

/** The IETF draft's response header on an answer that was replayed, not executed. */
export const idempotentReplayedHeader = headerNames.idempotentReplayed
/** Stripe's limit; the IETF draft sets none. */
const maxKeyLength = 255

export interface IdempotentCallArgs extends Omit<CallToolArgs, 'source' | 'liveInput' | 'storeRuns' | 'onEnding' | 'principal' | 'ids'> {
  /** Known before anything runs: it scopes the key. */
  principal: string | null
  key: string
  store: IdempotencyStore
  request: Request
  maxBytes: number
  mode: ResponseMode
}

/**
 * `POST /tools/:toolId` with an `Idempotency-Key` (SPEC §9). The body is read whole first: its
 * fingerprint must be known before anything of the tool runs (a keyed call streams no input live).
 * The first request with the key executes, with its run stored whatever the tool (an SSE repeat
 * replays the run's events); a repeat answers what the first answered, with `idempotent-replayed:
 * true`. A first request refused before anything ran (bad input) releases the key, and so does one
 * whose run could not be stored; one whose tool failed keeps its 5xx answer, as Stripe does. While
 * it executes, the first request renews its lease on the key (SPEC §12): cut off by a crash, it
 * stops, and the key's store settles the key as interrupted once the lease lapses.
 */
export async function idempotentCall(c: Context, args: IdempotentCallArgs): Promise<Response> {
  const { key, store, tool, mode } = args
  if (key.length === 0 || key.length > maxKeyLength) {
    throw new ToolrouteError('IDEMPOTENCY_KEY_INVALID', `The Idempotency-Key header must be 1 to ${maxKeyLength} characters, got ${key.length}`)
  }
  const body = await readBodyBytes(args.request, args.maxBytes)
  if (!body) throw new ToolrouteError('PAYLOAD_TOO_LARGE', `Request body is larger than ${args.maxBytes} bytes`)
  const fingerprint = await fingerprintOf({ toolId: tool.id, principal: args.principal, requestContext: args.requestContext }, body)
  const scope: IdempotencyScope = { principal: args.principal, key }
  const ids = callIdsOf(args.headers ?? args.request.headers)
  const begun = await store.begin(scope, fingerprint, { ...ids, toolId: tool.id, principal: args.principal })
  switch (begun.state) {
    case 'conflict':
      throw new ToolrouteError('IDEMPOTENCY_CONFLICT', `A request with Idempotency-Key ${JSON.stringify(key)} is still being processed`)
    case 'reused':
      throw new ToolrouteError('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${JSON.stringify(key)} was already used with another request`)
    case 'replay':
      return replay(c, begun.answer, tool, mode, args.runs(), args.principal)
  }
  const renewing = begun.renewEveryMs && store.renew ? renewKey(() => store.renew!(scope, fingerprint), begun.renewEveryMs) : undefined
  let recorded: Promise<void> = Promise.resolve()
  const onEnding = (ending: Promise<FirstStepEnding>) => {
    recorded = ending
      .then(
        (end) => (end.kind === 'input-error' ? store.release(scope, fingerprint) : store.complete(scope, fingerprint, answerOf(end, ids, tool))),
        () => store.release(scope, fingerprint),
      )
      .finally(() => renewing?.stop())
  }
  const calling = callTool(c, { ...args, ids, source: { chunks: body.byteLength > 0 ? [body] : [], maxBytes: args.maxBytes }, storeRuns: 'all', liveInput: false, onEnding })
  // A call that failed before its first step began has no ending to stop the renewals.
  calling.catch(() => renewing?.stop())
  if (!mode.sse) {
    // A JSON repeat that arrives right after this answer must find it recorded.
    try {
      return await calling
    } finally {
      await recorded
    }
  }
  args.defer(recorded.catch(() => {}))
  return calling
}

/**
 * Renews a key's lease every `everyMs` until stopped, one renewal at a time; a renewal refused (the
 * lease lapsed: this request was taken for dead, and the key now answers "interrupted") ends it.
 */
function renewKey(renew: () => Promise<boolean>, everyMs: number): { stop(): void } {
  let renewing = false
  const timer = setInterval(() => {
    if (renewing) return
    renewing = true
    renew().then(
      (held) => {
        renewing = false
        if (!held) clearInterval(timer)
      },
      () => (renewing = false),
    )
  }, everyMs)
  return { stop: () => clearInterval(timer) }
}

/**
 * The JSON answer of a first step, as `jsonEnding` and the error handler write it (the same
 * fields in the same order, so a replay is byte for byte the first answer).
 */
export function answerOf(end: Exclude<FirstStepEnding, { kind: 'input-error' }>, ids: { runId: string; toolCallId: string }, tool: AnyTool): IdempotentAnswer {
  const { runId, toolCallId } = ids
  const answer = (status: number, value: unknown): IdempotentAnswer => ({ status, body: JSON.stringify(value), runId, toolCallId })
  switch (end.kind) {
    case 'approval-required':
      return answer(202, { runId, toolCallId, status: 'approval-required', approvalId: end.approvalId } satisfies ApprovalRequiredResult)
    case 'background':
      return answer(202, { runId, toolCallId, status: 'running' } satisfies RunningResult)
    case 'executed': {
      const { outcome } = end
      if (outcome.status === 'failed') return answer(outcome.error.status, outcome.error.toJSON())
      if (outcome.status === 'suspended') {
        return answer(202, { runId, toolCallId, status: 'suspended', suspendPayload: outcome.suspendPayload, resumeSchema: tool.schemas.resume?.jsonSchema } satisfies SuspendedResult)
      }
      return answer(200, { runId, toolCallId, status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput } satisfies CompletedResult)
    }
  }
}

/** A repeat's answer: the first's JSON as it was, or its run's events from the first. */
async function replay(c: Context, answer: IdempotentAnswer, tool: AnyTool, mode: ResponseMode, runs: RunHost, principal: string | null): Promise<Response> {
  const headers = { [headerNames.runId]: answer.runId, [headerNames.toolCallId]: answer.toolCallId, [idempotentReplayedHeader]: 'true' }
  if (!mode.sse) return c.body(answer.body, answer.status as 200, { ...headers, 'content-type': 'application/json' })
  const events = await runs.follow(answer.runId, { principal, after: 0, signal: c.req.raw.signal })
  return sseResponse(events, createEventProjector(tool, mode.view), { headers, keepAliveMs: mode.keepAliveMs })
}
