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

/** input-required-result-basic-elicitation (and the suite's re-ask, tampering and validation checks). */
export const testInputRequiredResultElicitation = createTool({
  id: 'test_input_required_result_elicitation',
  description: 'Asks the user for a name (InputRequiredResult), then greets them',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { mcp }) => {
    const answer = await needMcp(mcp).elicitation.sendRequest(ask('What is your name?', { name: { type: 'string' } }))
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
