import { createTool } from 'toolroute'
import { z } from 'zod'

const ask = (message: string, properties: Record<string, { type: 'string' | 'boolean' }>) => ({
  message,
  requestedSchema: { type: 'object' as const, properties, required: Object.keys(properties) },
})

function needMcp<T>(mcp: T | undefined): T {
  if (!mcp) throw new Error('This tool asks its questions over MCP')
  return mcp
}

/**
 * input-required-result-basic-elicitation (and the suite's re-ask, tampering and validation
 * checks): the suite wants the question under the key `user_name`.
 */
export const testInputRequiredResultElicitation = createTool({
  id: 'test_input_required_result_elicitation',
  description: 'Asks the user for a name (InputRequiredResult), then greets them',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest(ask('What is your name?', { name: { type: 'string' } }), { key: 'user_name' })
    return `Hello, ${String(answer.content?.name ?? 'stranger')}!`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** input-required-result-request-state: the answer arrives with the requestState, and the text says so. */
export const testInputRequiredResultRequestState = createTool({
  id: 'test_input_required_result_request_state',
  description: 'Asks for confirmation; the answer comes back with its requestState',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest(ask('Please confirm', { ok: { type: 'boolean' } }))
    return `state-ok: ${answer.action}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** input-required-result-multi-round: two questions in turn. */
export const testInputRequiredResultMultiRound = createTool({
  id: 'test_input_required_result_multi_round',
  description: 'Asks two questions, one after the other',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const asker = needMcp(mcp)
    const name = await asker.elicitation.sendRequest(ask('Step 1: What is your name?', { name: { type: 'string' } }))
    const color = await asker.elicitation.sendRequest(ask('Step 2: What is your favorite color?', { color: { type: 'string' } }))
    return `${String(name.content?.name)} likes ${String(color.content?.color)}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** input-required-result-tampered-state: a requestState changed by the client must be refused. */
export const testInputRequiredResultTamperedState = createTool({
  id: 'test_input_required_result_tampered_state',
  description: 'Asks for confirmation; a tampered requestState is refused',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest(ask('Please confirm', { ok: { type: 'boolean' } }))
    return `confirmed: ${answer.action}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** tools-call-elicitation (2025 sessions): one form question, answered in the result. */
export const testElicitation = createTool({
  id: 'test_elicitation',
  description: 'Tests server-initiated elicitation (user input request)',
  inputSchema: z.object({ message: z.string() }),
  execute: async ({ message }, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest({
      message,
      requestedSchema: { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] },
    })
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** elicitation-sep1034-defaults (2025 sessions): a form whose every primitive field has a default. */
export const testElicitationSep1034Defaults = createTool({
  id: 'test_elicitation_sep1034_defaults',
  description: 'Asks a form with default values for every primitive type (SEP-1034)',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest({
      message: 'Please review your details (defaults are filled in)',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
        required: [],
      },
    })
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** elicitation-sep1330-enums (2025 sessions): the five enum shapes of SEP-1330 in one form. */
export const testElicitationSep1330Enums = createTool({
  id: 'test_elicitation_sep1330_enums',
  description: 'Asks a form with every enum variant (SEP-1330)',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest({
      message: 'Please pick your options',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
          titledMulti: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
        required: [],
      },
    })
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/**
 * server-stateless (2026-07-28): a call that streams a value, then asks; its response stream must
 * carry only the `input_required` result (and notifications), never a request of its own.
 */
export const testStreamingElicitation = createTool({
  id: 'test_streaming_elicitation',
  description: 'Streams a value, then asks the user a question',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp, writer }) => {
    await writer.write('Preparing the question')
    const answer = await needMcp(mcp).elicitation.sendRequest(ask('What is your name?', { name: { type: 'string' } }))
    return `Hello, ${String(answer.content?.name ?? 'stranger')}!`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/**
 * server-stateless (2026-07-28): a tool that cannot work without sampling; a request that does not
 * declare it is refused with -32021 naming `sampling`, before the tool runs.
 */
export const testMissingCapability = createTool({
  id: 'test_missing_capability',
  description: 'Needs the client to declare sampling',
  inputSchema: z.object({}).passthrough(),
  mcp: { requiredClientCapabilities: { sampling: {} } },
  execute: async () => 'The client declared sampling',
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/**
 * tasks-mrtr-composition (2026-07-28, tasks extension): a task-only background tool that gathers
 * its input first (`mcp.askBeforeTask`): the call answers its question (`user_name`) inline, and
 * the retry carrying the answer becomes the task, whose result names the user.
 */
export const testToolWithTask = createTool({
  id: 'test_tool_with_task',
  description: 'Asks for a name, then greets the user from a task',
  inputSchema: z.object({}).passthrough(),
  background: { enabled: true, timeoutMs: 60_000 },
  mcp: { taskSupport: 'required', askBeforeTask: true },
  execute: async (_input, { mcp, abortSignal }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest(ask('What is your name?', { name: { type: 'string' } }), { key: 'user_name' })
    // Long enough that the task is seen working after the answer.
    await new Promise((resolve) => setTimeout(resolve, 500))
    abortSignal.throwIfAborted()
    return `Hello, ${String(answer.content?.name ?? 'stranger')}!`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})
