import { expect } from 'vitest'
import { isToolDataEvent, type EmitEvent, type ToolDataType, type ToolEvent } from '../../src/protocol/tool-event.ts'
import type { AnyTool } from '../../src/tool/tool-types.ts'
import { createObserve } from '../../src/runtime/create-observe.ts'
import { RequestContext } from '../../src/tool/request-context.ts'
import type { ToolCallScope } from '../../src/runtime/tool-call-scope.ts'

/** The fields of each event type, as SPEC §3 lists them: [required, optional]. */
const specFields: Record<Exclude<ToolEvent['type'], ToolDataType>, [string[], string[]]> = {
  start: [['messageMetadata'], []],
  'tool-input-start': [['toolCallId', 'toolName'], []],
  'tool-input-delta': [['toolCallId', 'inputTextDelta'], []],
  'tool-input-available': [['toolCallId', 'toolName', 'input'], []],
  'tool-input-error': [['toolCallId', 'toolName', 'input', 'errorText'], []],
  'tool-approval-request': [['approvalId', 'toolCallId'], []],
  'tool-approval-response': [['approvalId', 'approved'], ['reason']],
  'data-tool-suspended': [['data'], []],
  'data-tool-resumed': [['data'], []],
  'data-tool-log': [['data'], []],
  'data-tool-attempt': [['data'], []],
  'data-tool-span': [['data'], []],
  'tool-output-available': [['toolCallId', 'output'], ['preliminary']],
  'data-tool-output': [['data'], []],
  'data-tool-model-output': [['data'], []],
  'tool-output-error': [['toolCallId', 'errorText'], []],
  'tool-output-denied': [['toolCallId'], []],
  finish: [['finishReason'], []],
}

/** Asserts that an event has exactly the fields SPEC §3 gives its type, and can be sent as JSON. */
export function expectSpecShape(event: ToolEvent): void {
  // A custom chunk (`writer.custom`) has the fields of an AI SDK data part.
  const [required, optional] = isToolDataEvent(event) ? [['data'], ['id', 'transient']] : specFields[event.type as keyof typeof specFields]
  const keys = Object.keys(event).filter((key) => key !== 'type')
  for (const key of required) expect(keys, `${event.type} lacks ${key}`).toContain(key)
  for (const key of keys) expect([...required, ...optional], `${event.type} has an extra field ${key}`).toContain(key)
  expect(() => JSON.stringify(event)).not.toThrow()
}

/** A scope like the HTTP layer builds, collecting every event emitted. */
export function collectingScope(tool: AnyTool, overrides: Partial<ToolCallScope> = {}) {
  const events: ToolEvent[] = []
  const emit: EmitEvent = (event) => {
    expectSpecShape(event)
    events.push(event)
  }
  const scope: ToolCallScope = {
    tool,
    runId: 'run_1',
    toolCallId: 'call_1',
    requestContext: new RequestContext({}),
    emit,
    observe: createObserve(emit),
    signal: new AbortController().signal,
    messages: [],
    ...overrides,
  }
  return { scope, events, types: () => events.map((event) => event.type) }
}
