import type { Context } from 'hono'
import { createEventProjector } from '../events/create-event-projector.ts'
import type { ApprovalRequiredResult, CompletedResult, RunningResult, SuspendedResult } from '../protocol/call-result.ts'
import type { SequencedEvent, ToolEventView } from '../protocol/tool-event.ts'
import { toolEventViews } from '../protocol/tool-event.ts'
import { uiMessageStreamDialectOf, type UiMessageStreamDialect } from '../protocol/ui-message-chunk.ts'
import { createRunId, createToolCallId } from '../runtime/create-id.ts'
import type { ToolInputSource } from '../runtime/receive-input.ts'
import { runFirstStep, type FirstStepEnding, type StepPrincipal } from '../runs/run-first-step.ts'
import type { RunHost } from '../runs/run-host.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { EventLog } from '../events/event-log.ts'
import { RequestCallScope } from './request-call-scope.ts'
import { sseResponse } from './sse-response.ts'
import { headerNames } from '../protocol/header-names.ts'

/** What the caller asked for: SSE or JSON, which view of the events, and for which AI SDK. */
export interface ResponseMode {
  sse: boolean
  view: ToolEventView
  dialect: UiMessageStreamDialect
  /** How long a stream may stay silent before a `: keep-alive` comment (the app's `keepAliveMs`). */
  keepAliveMs?: number | undefined
}

export function responseModeOf(c: Context, keepAliveMs?: number, headers: Headers = c.req.raw.headers): ResponseMode {
  const sse = (headers.get('accept') ?? '').includes('text/event-stream')
  // Most calls have no query: one read of the URL instead of one per parameter (each `c.req.query` reads it).
  if (!c.req.url.includes('?')) return { sse, view: 'display', dialect: uiMessageStreamDialectOf(undefined), keepAliveMs }
  const requested = c.req.query('view')
  const view = toolEventViews.includes(requested as ToolEventView) ? (requested as ToolEventView) : 'display'
  return { sse, view, dialect: uiMessageStreamDialectOf(c.req.query('aiSdk')), keepAliveMs }
}

export interface CallToolArgs {
  tool: AnyTool
  requestContext: Record<string, unknown>
  /** What the caller sent, before the tool's schema: a stored run keeps it (see `FirstStep`). */
  sentRequestContext: Record<string, unknown>
  /** Who owns the run, if one is stored (asked then, when it is a function). */
  principal: StepPrincipal
  source: ToolInputSource
  runs: () => RunHost
  storeRuns: 'stateful' | 'all'
  /** Stream before the input has arrived (a chunked body read live by an SSE caller). */
  liveInput: boolean
  /** Keeps work alive past the response (`executionCtx.waitUntil`). */
  defer: (work: Promise<unknown>) => void
  /** The response mode, when the route already read it. */
  mode?: ResponseMode
  /** The request's headers, when the route already holds them (one call into the runtime less). */
  headers?: Headers
  /**
   * No code but this call's has had the context, so no header can be waiting on it: a completed
   * call's JSON answer is then written straight into a `Response` (see `jsonAnswer`).
   */
  ownsContext?: boolean
  /** The call's ids, when made before the call (an idempotent call claims its key with them). */
  ids?: { runId: string; toolCallId: string }
  /** Told where the first step will end, as soon as it starts (an idempotent call records it). */
  onEnding?: (ending: Promise<FirstStepEnding>, ids: { runId: string; toolCallId: string }) => void
}

/**
 * `POST /tools/:toolId` once the middleware has accepted it. The call's first step runs here,
 * in the request; a run that then waits for a human, or runs in the background, is handed to
 * the run host with the events so far, so its log continues under the same ids.
 */
export async function callTool(c: Context, args: CallToolArgs): Promise<Response> {
  const { tool } = args
  const sent = args.headers ?? c.req.raw.headers
  const mode = args.mode ?? responseModeOf(c, undefined, sent)
  const { runId, toolCallId } = args.ids ?? callIdsOf(sent)
  const headers = { [headerNames.runId]: runId, [headerNames.toolCallId]: toolCallId }
  const log = new EventLog()
  const scope = new RequestCallScope(tool, { runId, toolCallId }, args.requestContext, log, c.req.raw)
  // Only a stream waits on the input phase by itself; a JSON answer waits for the ending.
  let inputPhaseDone: (ok: boolean) => void = () => {}
  const inputPhase = mode.sse ? new Promise<boolean>((resolve) => (inputPhaseDone = resolve)) : undefined
  const ending = runFirstStep({
    scope,
    log,
    source: args.source,
    principal: args.principal,
    requestContext: args.requestContext,
    sentRequestContext: args.sentRequestContext,
    runs: args.runs,
    storeRuns: args.storeRuns,
    held: scope.held,
    onInput: (ok) => inputPhaseDone(ok),
  })
  args.onEnding?.(ending, { runId, toolCallId })
  if (!mode.sse) {
    // A JSON answer waits for the ending, so it leaves no work behind the response.
    try {
      return jsonEnding(c, await ending, { runId, toolCallId }, headers, args.ownsContext === true)
    } finally {
      scope.abort.release()
    }
  }
  ending.catch(() => {})
  args.defer(ending.finally(() => scope.abort.release()).catch(() => {}))

  // A body that is already complete is validated before the stream starts, so bad input gets
  // its error status; a body still arriving streams its deltas live, and a bad one ends the
  // stream with `tool-input-error`.
  if (!args.liveInput && !(await inputPhase!)) {
    const end = await ending
    if (end.kind === 'input-error') throw end.error
  }
  const project = createEventProjector(tool, mode.view)
  async function* events(): AsyncGenerator<SequencedEvent> {
    yield* log.read()
    const end = await ending.catch(() => undefined)
    if (end?.kind !== 'background') return
    const principal = typeof args.principal === 'function' ? await args.principal() : args.principal
    yield* await args.runs().follow(runId, { principal, after: log.lastSeq() })
  }
  return sseResponse(events(), project, {
    headers,
    dialect: mode.dialect,
    keepAliveMs: mode.keepAliveMs,
    onCancel: async () => {
      // A background run goes on without its caller; a call in the request stops with it.
      if ((await Promise.race([ending, Promise.resolve(undefined)]))?.kind !== 'background') scope.callerLeft()
    },
  })
}

/** A new call's ids: a fresh run id, and the caller's tool call id if it sent one. */
export function callIdsOf(headers: Headers): { runId: string; toolCallId: string } {
  return { runId: createRunId(), toolCallId: headers.get(headerNames.toolCallId) || createToolCallId() }
}

/**
 * The JSON answers of SPEC §2 for a call, an approval or a resume. The answers are written out
 * field by field: an object spread here made V8 build a slow object, costly to create and
 * serialize on a small call's path (BENCHMARKS.md, the isolate bench).
 */
export function jsonEnding(
  c: Context,
  end: FirstStepEnding,
  ids: { runId: string; toolCallId: string },
  headers: Record<string, string>,
  ownsContext = false,
): Response {
  const { runId, toolCallId } = ids
  switch (end.kind) {
    case 'input-error':
      throw end.error
    case 'approval-required':
      return c.json({ runId, toolCallId, status: 'approval-required', approvalId: end.approvalId } satisfies ApprovalRequiredResult, 202, headers)
    case 'background':
      return c.json({ runId, toolCallId, status: 'running' } satisfies RunningResult, 202, headers)
    case 'executed': {
      const { outcome } = end
      if (outcome.status === 'failed') {
        c.header(headerNames.runId, runId)
        c.header(headerNames.toolCallId, toolCallId)
        throw outcome.error
      }
      if (outcome.status === 'suspended') {
        return c.json({ runId, toolCallId, status: 'suspended', suspendPayload: outcome.suspendPayload, resumeSchema: resumeSchemaOf(c) } satisfies SuspendedResult, 202, headers)
      }
      const completed = { runId, toolCallId, status: 'completed', output: outcome.output, modelOutput: outcome.modelOutput } satisfies CompletedResult
      return ownsContext ? jsonAnswer(completed, 200, runId, toolCallId) : c.json(completed, 200, headers)
    }
  }
}

/**
 * The answer `c.json(body, status, headers)` writes, without Hono's `Headers`: for more than one
 * header, `c.json` builds a `Headers` and sets each (a call into the runtime apiece), where a
 * record given to `Response` is read in one (measured with the isolate bench, BENCHMARKS.md). Only for a context nothing else has touched: `c.json` also carries the headers a
 * middleware set with `c.header()` before, which this cannot see.
 */
function jsonAnswer(body: unknown, status: number, runId: string, toolCallId: string): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', [headerNames.runId]: runId, [headerNames.toolCallId]: toolCallId } })
}

function resumeSchemaOf(c: Context): Record<string, unknown> | undefined {
  return (c.get('tool') as AnyTool | undefined)?.schemas.resume?.jsonSchema
}
