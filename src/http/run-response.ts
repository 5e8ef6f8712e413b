import type { Context } from 'hono'
import { callJson } from '../runtime/call-json.ts'
import { createEventProjector } from '../events/create-event-projector.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunView } from '../protocol/call-result.ts'
import type { RunSegment } from '../runs/run-host.ts'
import type { SequencedEvent } from '../protocol/tool-event.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ResponseMode } from './call-tool.ts'
import { deferOf } from '../caller/defer-of.ts'
import { sseResponse } from './sse-response.ts'
import { headerNames } from '../protocol/header-names.ts'

/** The JSON answer for a run where a step left it (SPEC §2 "JSON responses", `callJson`). */
export function runJson(c: Context, run: RunRecord, tool: AnyTool | undefined): Response {
  const headers = { [headerNames.runId]: run.runId, [headerNames.toolCallId]: run.toolCallId }
  const json = callJson(run, run, tool)
  if (json.ok) return c.json(json.body, json.status, headers)
  if (run.status === 'failed') for (const [name, value] of Object.entries(headers)) c.header(name, value)
  throw json.error
}

/** The caller left: the step stops, and an abort that travels to the run's object outlives the request. */
function abortStep(c: Context, segment: RunSegment): void {
  const travelling = segment.abort(new Error('The caller disconnected'))
  if (travelling) deferOf(c)(travelling)
}

/** Answers an approve / decline / resume step as SSE (its live events) or JSON (where it ends). */
export async function segmentResponse(c: Context, segment: RunSegment, tool: AnyTool | undefined, mode: ResponseMode): Promise<Response> {
  if (!mode.sse) {
    // A background run goes on without its caller: JSON answers `running` at once, without
    // reading the step's events (a remote host opens them only when read).
    if (segment.run.background && segment.run.status === 'running') return runJson(c, segment.run, tool)
    const onAbort = () => abortStep(c, segment)
    c.req.raw.signal?.addEventListener('abort', onAbort, { once: true })
    try {
      // Drained first: where a step ends is known once its events are (a remote host's
      // final state comes after them on the same stream).
      for await (const _ of segment.events);
      return runJson(c, await segment.settled, tool)
    } finally {
      c.req.raw.signal?.removeEventListener('abort', onAbort)
    }
  }
  const project = tool ? createEventProjector(tool, mode.view, { input: segment.run.input }) : async (event: SequencedEvent['event']) => event
  // Either sign of a caller gone (the body cancelled, the request aborted) ends the step.
  const onAbort = () => abortStep(c, segment)
  c.req.raw.signal?.addEventListener('abort', onAbort, { once: true })
  void segment.settled.finally(() => c.req.raw.signal?.removeEventListener('abort', onAbort)).catch(() => {})
  return sseResponse(segment.events, project, {
    headers: { [headerNames.runId]: segment.run.runId, [headerNames.toolCallId]: segment.run.toolCallId },
    dialect: mode.dialect,
    keepAliveMs: mode.keepAliveMs,
    onCancel: onAbort,
  })
}

/**
 * `GET /runs/:runId`: the run, with the transcript view (never raw payloads) of one page of its
 * events, and the cursor of the page before it while there is one (numbers start at 1).
 */
export async function runView(run: RunRecord, events: SequencedEvent[], tool: AnyTool | undefined): Promise<RunView> {
  const transcript: unknown[] = []
  if (tool) {
    const project = createEventProjector(tool, 'transcript')
    for (const entry of events) {
      const shown = await project(entry.event)
      if (shown) transcript.push(shown)
    }
  }
  const resumeSchema = run.status === 'suspended' ? tool?.schemas.resume?.jsonSchema : undefined
  return {
    runId: run.runId,
    toolId: run.toolId,
    toolCallId: run.toolCallId,
    status: run.status,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(run.expiresAt ? { expiresAt: run.expiresAt } : {}),
    ...(run.suspendPayload !== undefined && run.status === 'suspended' ? { suspendPayload: run.suspendPayload } : {}),
    ...(resumeSchema ? { resumeSchema } : {}),
    ...(run.approvalId && run.status === 'approval-required' ? { approvalId: run.approvalId } : {}),
    ...(run.output !== undefined ? { output: run.output } : {}),
    ...(run.modelOutput ? { modelOutput: run.modelOutput } : {}),
    ...(run.error ? { error: run.error } : {}),
    ...(run.reason !== undefined ? { reason: run.reason } : {}),
    transcript,
    ...(events[0] && events[0].seq > 1 ? { transcriptCursor: String(events[0].seq) } : {}),
  }
}
