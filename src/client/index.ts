/**
 * `toolroute/client`: calling toolroute tools from an agent on Workers, Deno, Node or in a
 * browser. At run time it imports only `src/protocol/` (the wire contract) and eventsource-parser;
 * the server's tool types are imported as types only, for inference, so it bundles small.
 *
 * @example
 * import { createToolClient } from 'toolroute/client'
 * import type { tools } from '../tools'
 *
 * const client = createToolClient<typeof tools>({ baseUrl: 'https://tools.example.com' })
 * for await (const { event } of client.stream('weather-tool', { location: 'Lisbon' })) {
 *   if (event.type === 'tool-output-available') console.log(event.output)
 * }
 */
export { createToolClient } from './create-tool-client.ts'
export { ToolClientError } from './tool-client-error.ts'
export type { ToolClientErrorCode } from './tool-client-error.ts'
export type * from './tool-client-types.ts'
export { isToolDataEvent } from '../protocol/tool-event.ts'
export type { ToolEvent, ToolEventType, ToolEventView, SequencedEvent, ToolDataEvent, ToolDataType } from '../protocol/tool-event.ts'
export type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
export type * from '../protocol/call-result.ts'
export type { ErrorCode, ValidationIssue } from '../protocol/error-codes.ts'
export type { ToolModelOutput } from '../protocol/model-output.ts'
