import type { Context } from 'hono'
import { callJson } from '../runtime/call-json.ts'
import { createEventProjector, unencodableEvent } from '../runs/create-event-projector.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { RunView } from '../protocol/call-result.ts'
import type { RunSegment } from '../runs/run-host.ts'
import type { SequencedEvent } from '../protocol/tool-event.ts'
import { isJson } from '../errors/toolroute-error.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ResponseMode } from './call-tool.ts'
import { deferOf } from '../caller/defer-of.ts'
import { sseResponse } from './sse-response.ts'
import { headerNames } from '../protocol/header-names.ts'

/** The JSON answer for a run where a step left it (SPEC §2 "JSON responses", `callJson`). */
function runJson(c: Context, run: RunRecord, tool: AnyTool | undefined): Response {
  const headers = { [headerNames.runId]: run.runId, [headerNames.toolCallId]: run.toolCallId }
  const json = callJson(run, run, tool)
  if (json.ok) return c.json(json.body, json.status, headers)
  if (run.status === 'failed') for (const [name, value] of Object.entries(headers)) c.header(name, value)
  throw json.error
}

/** Answers an approve / decline / resume step as SSE (its live events) or JSON (where it ends). */
export async function segmentResponse(c: Context, segment: RunSegment, tool: AnyTool | undefined, mode: ResponseMode): Promise<Response> {
  // A background run goes on without its caller: JSON answers `running` at once, without reading
  // the step's events (a remote host opens them only when read).
  if (!mode.sse && segment.run.background && segment.run.status === 'running') return runJson(c, segment.run, tool)
  // Either sign of a caller gone (the body cancelled, the request aborted) ends the step; an abort
  // that travels to the run's object outlives the request.
  const signal = c.req.raw.signal
  const onAbort = () => {
    const travelling = segment.abort(new Error('The caller disconnected'))
    if (travelling) deferOf(c)(travelling)
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  if (!mode.sse) {
    try {
      // Drained first: a remote host's final state comes after the events, on the same stream.
      for await (const _ of segment.events);
      return runJson(c, await segment.settled, tool)
    } finally {
      signal?.removeEventListener('abort', onAbort)
    }
  }
  void segment.settled.finally(() => signal?.removeEventListener('abort', onAbort)).catch(() => {})
  const project = tool ? createEventProjector(tool, mode.view, { input: segment.run.input }) : async (event: SequencedEvent['event']) => event
  return sseResponse(segment.events, project, {
    ...mode,
    headers: { [headerNames.runId]: segment.run.runId, [headerNames.toolCallId]: segment.run.toolCallId },
    onCancel: onAbort,
  })
}

/** `GET /runs/:runId`: the run, a page of its events' transcript (never raw payloads), the cursor of the page before. */
export async function runView(run: RunRecord, events: SequencedEvent[], tool: AnyTool | undefined): Promise<RunView> {
  const transcript: unknown[] = []
  if (tool) {
    const project = createEventProjector(tool, 'transcript')
    // Stored events are JSON; only a transform can return what is not (No read can fail, SPEC §12).
    const transforms = tool.options.transform?.transcript !== undefined
    for (const entry of events) {
      const shown = await project(entry.event)
      const sent = shown && transforms && !isJson(shown) ? unencodableEvent(shown, entry.event) : shown
      if (sent) transcript.push(sent)
    }
  }
  const { runId, toolId, toolCallId, traceId, status, createdAt, updatedAt, expiresAt, history, output, modelOutput, error, reason } = run
  // Only a waiting run shows what it waits on; a field left `undefined` is absent from the JSON answer.
  const waiting =
    status === 'suspended' ? { suspendPayload: run.suspendPayload, resumeSchema: tool?.schemas.resume?.jsonSchema } : status === 'approval-required' ? { approvalId: run.approvalId } : {}
  const transcriptCursor = events[0] && events[0].seq > 1 ? String(events[0].seq) : undefined
  return { runId, toolId, toolCallId, status, createdAt, updatedAt, traceId, expiresAt, history, ...waiting, output, modelOutput, error, reason, transcript, transcriptCursor }
}
