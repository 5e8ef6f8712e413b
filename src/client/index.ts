/**
 * `toolroute/client`: calling toolroute tools from an agent on Workers, Deno, Node or in a
 * browser. It imports the server's code only as types, so it bundles small.
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
export { isToolDataEvent } from './is-tool-data-event.ts'
export type { ToolEvent, ToolEventType, ToolEventView, SequencedEvent, ToolDataEvent, ToolDataType } from '../events/tool-event.ts'
export type { ToolDescriptor } from '../http/tool-descriptor.ts'
export type { RunView, RunStatus } from '../runs/run-record.ts'
export type { ErrorCode, ValidationIssue } from '../errors/toolroute-error.ts'
export type { ToolModelOutput } from '../runtime/model-output.ts'
