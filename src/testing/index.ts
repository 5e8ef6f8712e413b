/**
 * `toolroute/testing`: tests of tools, in workerd under `@cloudflare/vitest-plugin` or in Node.
 * `createTestClient` calls the Worker under test and settles its runs by running their alarms;
 * `runTool` calls one tool through every phase of a call without a server.
 *
 * @example
 * import { createTestClient, runTool } from 'toolroute/testing'
 * import type { Tools } from '../.toolroute/tools.ts'
 * import { greet } from '../tools/greet.ts'
 *
 * const client = createTestClient<Tools>()
 * expect(await client.call('greet', { name: 'Ada' })).toMatchObject({ status: 'completed' })
 * expect(await runTool(greet, { name: '' })).toMatchObject({ status: 'failed', error: { code: 'INPUT_VALIDATION_FAILED' } })
 */
export { createTestClient } from './create-test-client.ts'
export type { SettleOptions, TestClient } from './create-test-client.ts'
export { runTool } from './run-tool.ts'
export type { RunToolOptions, RunToolResult } from './run-tool.ts'
