import { createTool } from 'toolroute'
import { z } from 'zod'

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
  })

/** tools-call-with-progress: three streamed values, each a notifications/progress. */
export const testToolWithProgress = createTool({
  id: 'test_tool_with_progress',
  description: 'Tests tool that reports progress notifications',
  inputSchema: z.object({}),
  execute: async (_input, { writer }) => {
    for (const step of [0, 50, 100]) {
      await writer.write({ progress: step, total: 100, message: `Completed step ${step} of 100` })
      if (step < 100) await sleep(50)
    }
    return 'Progress test completed'
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** tools-call-with-logging: three info logs, ~50ms apart, each a notifications/message (issue #28 item 4). */
export const testToolWithLogging = createTool({
  id: 'test_tool_with_logging',
  description: 'Tests tool that emits log messages during execution',
  inputSchema: z.object({}),
  execute: async (_input, { observe }) => {
    observe.log('info', 'Tool execution started')
    await sleep(50)
    observe.log('info', 'Tool processing data')
    await sleep(50)
    observe.log('info', 'Tool execution completed')
    return 'Tool with logging executed successfully'
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** server-stateless (2026-07-28): logs, which a request without `_meta…/logLevel` must not receive. */
export const testLoggingTool = createTool({
  id: 'test_logging_tool',
  description: 'Logs at every level, then answers',
  inputSchema: z.object({}).passthrough(),
  execute: async (_input, { observe }) => {
    for (const level of ['debug', 'info', 'warn', 'error'] as const) observe.log(level, `A ${level} message`)
    return 'Logged'
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** The tasks extension's task-supporting tool: sleeps `seconds`, settles to cancelled when cancelled. */
export const slowCompute = createTool({
  id: 'slow_compute',
  description: 'Task-supporting: sleeps for `seconds` seconds, then answers',
  inputSchema: z.object({ seconds: z.number().min(0).max(120), label: z.string().optional() }),
  background: { enabled: true, timeoutMs: 180_000 },
  execute: async ({ seconds, label }, { abortSignal }) => {
    await sleep(seconds * 1000, abortSignal)
    return `Computed ${label ?? 'result'} after ${seconds}s`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/**
 * Task-supporting: always a tool execution error after about a second (a `completed` task whose
 * result is `isError`). Its calls must be tasks: a client without the extension gets -32021.
 */
export const failingJob = createTool({
  id: 'failing_job',
  description: 'Task-supporting: fails with a tool error after about a second',
  inputSchema: z.object({}).passthrough(),
  background: { enabled: true, timeoutMs: 60_000 },
  mcp: { taskSupport: 'required' },
  execute: async (_input, { abortSignal }) => {
    await sleep(1000, abortSignal)
    throw new Error('failing_job always fails')
  },
})

/**
 * Task-supporting: the suite wants a protocol-level failure. A toolroute tool cannot raise one (its
 * errors are tool errors); the host giving up on its attempt (past `timeoutMs`) is one: a `failed` task.
 */
export const protocolErrorJob = createTool({
  id: 'protocol_error_job',
  description: 'Task-supporting: ends in a protocol error',
  inputSchema: z.object({}).passthrough(),
  background: { enabled: true, timeoutMs: 1000 },
  execute: async (_input, { abortSignal }) => {
    await sleep(5000, abortSignal)
    return 'unreachable'
  },
})

/** Task-supporting: one question (a suspension asking for `confirm`), then done once it is answered. */
export const confirmDelete = createTool({
  id: 'confirm_delete',
  description: 'Task-supporting: asks to confirm deleting a file, then deletes it (or not)',
  inputSchema: z.object({ filename: z.string() }),
  suspendSchema: z.object({ message: z.string() }),
  resumeSchema: z.object({ confirm: z.boolean() }),
  background: { enabled: true, timeoutMs: 60_000 },
  execute: async ({ filename }, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ message: `Delete ${filename}?` })
    return resumeData.confirm ? `Deleted ${filename}` : `Kept ${filename}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/**
 * Task-supporting: two questions asked at once, mid-execute, so two keys are pending together; the
 * requester may answer them one `tasks/update` at a time, and the task stays `input_required`
 * until both are answered.
 */
export const multiInput = createTool({
  id: 'multi_input',
  description: 'Task-supporting: asks for a name and a confirmation, both at once',
  inputSchema: z.object({}).passthrough(),
  background: { enabled: true, timeoutMs: 60_000 },
  execute: async (_input, { mcp }) => {
    if (!mcp) throw new Error('This tool asks its questions over MCP (a client of the tasks extension)')
    const [name, confirmation] = await Promise.all([
      mcp.elicitation.sendRequest({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }),
      mcp.elicitation.sendRequest({ message: 'Do you confirm?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }),
    ])
    return `${String(name.content?.name)}: ${confirmation.content?.confirm === true ? 'confirmed' : 'not confirmed'}`
  },
  toModelOutput: (output) => ({ type: 'text', value: output }),
})
