import type { Context } from 'hono'
import { createEventProjector } from '../runs/create-event-projector.ts'
import { toolEventViews, type SequencedEvent, type ToolEventView } from '../protocol/tool-event.ts'
import { uiMessageStreamDialectOf, type UiMessageStreamDialect } from '../protocol/ui-message-chunk.ts'
import { callJson } from '../runtime/call-json.ts'
import { newCallIds, type CallEnding, type CallIds, type ToolCall, type ToolInputSource } from '../runtime/start-call.ts'
import { runKeeper, type StepPrincipal } from '../runs/run-keeper.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { sseResponse } from './sse-response.ts'
import { ToolrouteError } from '../errors/toolroute-error.ts'
import { headerNames } from '../protocol/header-names.ts'
import { idHeaders, jsonTextOf, type JsonAnswer } from './json-answer-of.ts'

/** What the caller asked for: SSE or JSON, which view of the events, and for which AI SDK. */
export interface ResponseMode {
  sse: boolean
  view: ToolEventView
  dialect: UiMessageStreamDialect
  keepAliveMs?: number | undefined
}

export function responseModeOf(c: Context, keepAliveMs?: number, headers: Headers = c.req.raw.headers): ResponseMode {
  const sse = (headers.get('accept') ?? '').includes('text/event-stream')
  // Most calls have no query: one read of the URL instead of one per parameter.
  if (!c.req.url.includes('?')) return { sse, view: 'display', dialect: uiMessageStreamDialectOf(undefined), keepAliveMs }
  const requested = c.req.query('view')
  const view = (requested || 'display') as ToolEventView
  if (!toolEventViews.includes(view)) throw new ToolrouteError('INPUT_VALIDATION_FAILED', `Unknown view "${requested}": ?view= takes ${toolEventViews.join(', ')}`, { issues: [{ path: ['view'], message: `expected one of ${toolEventViews.join(', ')}` }] })
  return { sse, view, dialect: uiMessageStreamDialectOf(c.req.query('aiSdk')), keepAliveMs }
}

export interface CallToolArgs {
  call: ToolCall
  /** Who owns the run, if one is kept (asked then, when it is a function). */
  principal: StepPrincipal
  source: ToolInputSource
  runs: () => RunHost
  storeRuns: 'stateful' | 'all'
  /** Stream before the input has arrived (a chunked body read live by an SSE caller). */
  liveInput: boolean
  defer: (work: Promise<unknown>) => void
  mode: ResponseMode
  headers: Headers
  /** Writes a completed call's JSON answer (`jsonAnswerOf`); else `c.json`. */
  answer?: JsonAnswer
  /** The call's ids, when made before the call (an idempotent call claims its key with them). */
  ids?: CallIds
  /** Told where the first step will end, as soon as it starts (an idempotent call records it). */
  onEnding?: (ending: Promise<CallEnding<RunRecord>>, ids: CallIds) => void
}

/** `POST /tools/:toolId`: the first step runs in the request; a run that then waits goes on in the run host. */
export async function callTool(c: Context, args: CallToolArgs): Promise<Response> {
  const { call, mode } = args
  const { tool } = call
  // Only a stream waits on the input phase by itself; a JSON answer waits for the ending, leaving no work behind.
  let inputPhaseDone: (ok: boolean) => void = () => {}
  const inputPhase = mode.sse ? new Promise<boolean>((resolve) => (inputPhaseDone = resolve)) : undefined
  const { ids, log, abort, ending } = call.run({
    ids: args.ids ?? callIdsOf(args.headers, c.get('callTrace')?.ids),
    extras: { trace: c.get('callTrace')?.trace },
    source: args.source,
    keeper: runKeeper({ tool, runs: args.runs, storeRuns: args.storeRuns, principal: args.principal, sentRequestContext: call.sentRequestContext }),
    // The caller leaving aborts the call; `data-tool-suspended` waits until its run is stored, so a caller acting on it never meets RUN_NOT_FOUND.
    abortWith: c.req.raw,
    holdSuspended: true,
    onInput: (ok) => inputPhaseDone(ok),
  })
  args.onEnding?.(ending, ids)
  if (!mode.sse) {
    try {
      return jsonEnding(c, await ending, ids, tool, args.answer ?? plainAnswer)
    } finally {
      abort!.release()
    }
  }
  args.defer(ending.finally(() => abort!.release()).catch(() => {}))
  // A complete body is validated before the stream starts, so bad input gets its error status; a
  // body still arriving streams its deltas live, and a bad one ends the stream with `tool-input-error`.
  if (!args.liveInput && !(await inputPhase!)) {
    const end = await ending
    if (end.kind === 'input-error') throw end.error
  }
  async function* events(): AsyncGenerator<SequencedEvent> {
    yield* log.read()
    const end = await ending.catch(() => undefined)
    if (end?.kind !== 'background') return
    const principal = typeof args.principal === 'function' ? await args.principal() : args.principal
    yield* await args.runs().follow(ids.runId, { principal, after: log.lastSeq() })
  }
  return sseResponse(events(), createEventProjector(tool, mode.view), {
    ...mode,
    headers: idHeaders(ids),
    onCancel: async () => {
      // A background run goes on without its caller; a call in the request stops with it.
      if ((await Promise.race([ending, Promise.resolve(undefined)]))?.kind !== 'background') abort!.abort()
    },
  })
}

/** What an `x-tool-call-id` may be (SPEC §2): 1 to 128 visible ASCII characters. */
const toolCallIdPattern = /^[\x21-\x7e]{1,128}$/

/** A new call's ids, with the tool call id the caller sent (`x-tool-call-id`), a bad one refused, never echoed; the trace's of its span when traced. */
export function callIdsOf(headers: Headers, span?: { traceId: string; spanId: string }): CallIds {
  const sent = headers.get(headerNames.toolCallId)
  if (sent && !toolCallIdPattern.test(sent)) {
    throw new ToolrouteError('INVALID_HEADER', `The x-tool-call-id header must be 1 to 128 visible ASCII characters (got ${sent.length} characters)`)
  }
  return newCallIds(sent, headers.get(headerNames.traceparent), span)
}

/** A call's ending as its JSON answer (`callJson`), or thrown, with the run's ids on a failed execution's answer. */
function jsonEnding(c: Context, end: CallEnding<RunRecord>, ids: CallIds, tool: AnyTool, answer: JsonAnswer): Response {
  const json = callJson(ids, end, tool)
  if (json.ok) return answer(c, json.body, json.status, ids)
  if (end.kind !== 'input-error') {
    for (const [name, value] of Object.entries(idHeaders(ids))) c.header(name, value)
  }
  throw json.error
}

const plainAnswer: JsonAnswer = (c, body, status, ids) => c.body(jsonTextOf(c, body, ids), status, { 'content-type': 'application/json', ...idHeaders(ids) })
