import type { AnyTool, ToolPayloadTransformContext, ToolPayloadTransformTarget, TransformPhase } from '../tool/tool-types.ts'
import type { ToolEvent, ToolEventView } from '../protocol/tool-event.ts'
import { isJson, outputNotJsonMessage } from '../errors/toolroute-error.ts'

/** Maps each raw event of a run to what one audience may see of it, or drops it. */
export type EventProjector = (event: ToolEvent) => Promise<ToolEvent | undefined>

const unavailable = (phase: TransformPhase) => ({ message: `Tool ${phase} payload unavailable` })

const asText = (value: unknown, phase: TransformPhase): string =>
  typeof value === 'string' ? value : isJson(value) ? (JSON.stringify(value) ?? unavailable(phase).message) : unavailable(phase).message

/** The phase of the payload an event carries, as `transform` names it. */
const phaseOf: Partial<Record<ToolEvent['type'], Exclude<TransformPhase, 'inputDelta'>>> = {
  'tool-input-available': 'input',
  'tool-input-error': 'input',
  'tool-output-available': 'output',
  'data-tool-suspended': 'suspend',
  'data-tool-resumed': 'resume',
}

/**
 * What is sent for `shown` (the view of `raw`) once encoding it threw (every stream ends): a transform's
 * result gets "payload unavailable"; a final output of the tool's own `tool-output-error`; else nothing.
 */
export function unencodableEvent(shown: ToolEvent, raw: ToolEvent): ToolEvent | undefined {
  const phase = phaseOf[shown.type]
  if (phase && shown !== raw && isJson(raw)) {
    if (shown.type === 'data-tool-suspended') return { ...shown, data: { ...shown.data, suspendPayload: unavailable(phase) } }
    if (shown.type === 'data-tool-resumed') return { ...shown, data: { ...shown.data, resumeData: unavailable(phase) } }
    return { ...shown, [phase]: unavailable(phase) } as ToolEvent
  }
  if (shown.type !== 'tool-output-available' || shown.preliminary) return undefined
  return { type: 'tool-output-error', toolCallId: shown.toolCallId, errorText: outputNotJsonMessage }
}

/**
 * The view layer of SPEC §3: `raw` passes everything through; `display` and `transcript` pass each
 * payload through `transform[view][phase]` (one that throws or returns `undefined` yields
 * `{ message: "Tool <phase> payload unavailable" }`). Only `raw` carries `data-tool-model-output`;
 * a view that transforms `input` but not `inputDelta` drops the deltas (they spell out the input).
 */
export function createEventProjector(tool: AnyTool, view: ToolEventView, seed: { input?: unknown } = {}): EventProjector {
  let input = seed.input
  const trackInput = (event: ToolEvent) => {
    if (event.type === 'tool-input-available' || event.type === 'tool-input-error') input = event.input
  }
  if (view === 'raw') {
    return async (event) => {
      trackInput(event)
      return event
    }
  }
  const transforms: ToolPayloadTransformTarget | undefined = tool.options.transform?.[view]
  const base = { target: view, toolName: tool.id }

  /** Every phase but `inputDelta`, whose deltas are dropped rather than replaced (below). */
  async function apply<T>(phase: Exclude<TransformPhase, 'inputDelta'>, raw: T, fields: Partial<ToolPayloadTransformContext>): Promise<unknown> {
    const transform = transforms?.[phase]
    if (!transform) return raw
    try {
      const contextPhase = phase === 'input' ? 'input-available' : phase === 'output' ? 'output-available' : phase
      const result = await transform({ ...base, phase: contextPhase, toolCallId: '', input, ...fields } as ToolPayloadTransformContext)
      return result === undefined ? unavailable(phase) : result
    } catch {
      return unavailable(phase)
    }
  }

  return async (event) => {
    switch (event.type) {
      case 'data-tool-model-output':
        return undefined
      case 'tool-input-delta': {
        if (!transforms?.inputDelta) return transforms?.input ? undefined : event
        try {
          const result = await transforms.inputDelta({ ...base, phase: 'input-delta', toolCallId: event.toolCallId, input, inputTextDelta: event.inputTextDelta })
          return result === undefined ? undefined : { ...event, inputTextDelta: asText(result, 'inputDelta') }
        } catch {
          return undefined
        }
      }
      case 'tool-input-available':
        trackInput(event)
        return { ...event, input: await apply('input', event.input, { toolCallId: event.toolCallId, input: event.input }) }
      case 'tool-input-error': {
        trackInput(event)
        const shownInput = await apply('input', event.input, { toolCallId: event.toolCallId, input: event.input })
        const errorText = asText(await apply('error', event.errorText, { toolCallId: event.toolCallId, error: event.errorText }), 'error')
        return { ...event, input: shownInput, errorText }
      }
      case 'tool-output-available':
        return { ...event, output: await apply('output', event.output, { toolCallId: event.toolCallId, output: event.output }) }
      case 'tool-output-error':
        return { ...event, errorText: asText(await apply('error', event.errorText, { toolCallId: event.toolCallId, error: event.errorText }), 'error') }
      case 'tool-approval-response':
        if (event.reason === undefined || !transforms?.approval) return event
        return { ...event, reason: asText(await apply('approval', event.reason, { toolCallId: '' }), 'approval') }
      case 'data-tool-suspended': {
        const { toolCallId, suspendPayload } = event.data
        return { ...event, data: { ...event.data, suspendPayload: await apply('suspend', suspendPayload, { toolCallId, suspendPayload }) } }
      }
      case 'data-tool-resumed': {
        const { toolCallId, resumeData } = event.data
        return { ...event, data: { ...event.data, resumeData: await apply('resume', resumeData, { toolCallId, resumeData }) } }
      }
      default:
        return event
    }
  }
}
