import { jsonSchema, type Tool as AiSdkTool } from 'ai'
import { ToolClientError } from '../client/tool-client-error.ts'
import type { ToolClient, ToolIdOf, ToolInputOf, ToolOutputOf, ToolSetLike } from '../client/tool-client-types.ts'
import type { SequencedEvent } from '../protocol/tool-event.ts'
import type { ApprovalRequiredResult, SuspendedResult } from '../protocol/call-result.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { ToolModelOutput } from '../protocol/model-output.ts'
import { aiSdkToolName, type AiSdkToolName } from './ai-sdk-tool-name.ts'

/** A tool's run that stopped to wait for a person: what `execute` returns when nobody answers it here. */
export type PendingToolResult = SuspendedResult | ApprovalRequiredResult

/** A suspension handed to `onSuspend`. */
export interface ToolSuspension extends Omit<SuspendedResult, 'status'> {
  toolId: string
}

export interface ToAiSdkToolsOptions<Id extends string = string> {
  /** Only these tools (default: every tool the server lists). */
  tools?: readonly Id[]
  /** The request context of every call (`x-request-context`), over the client's own. */
  requestContext?: Record<string, unknown>
  /**
   * Answers a tool that suspends: return its `resumeData`, and the run resumes and `execute` goes
   * on to the output. Without it, the tool's result is the suspension itself (`PendingToolResult`),
   * for the application to resume later with `client.resume(runId, …)`.
   */
  onSuspend?: (suspension: ToolSuspension) => unknown | Promise<unknown>
  /**
   * Told the run each call started, as soon as the server names it: what a chat keeps to replay
   * the run later (`client.follow(runId)`, `GET /runs/:runId/events`), after a reload or a disconnect.
   */
  onRun?: (run: { toolId: string; runId: string; toolCallId: string }) => void
}

/** The AI SDK tools of a client, each under its name for the model (`aiSdkToolName`), typed per tool when the client is. */
export type AiSdkToolsOf<T extends ToolSetLike, Id extends ToolIdOf<T> = ToolIdOf<T>> = {
  [K in Id as AiSdkToolName<K>]: AiSdkTool<ToolInputOf<T, K>, ToolOutputOf<T, K> | PendingToolResult>
}

/**
 * The server's tools as AI SDK tools (`generateText`, `streamText`, agents). Each `execute` calls
 * the remote tool over SSE and yields as they come what it writes (`context.writer.write`) and
 * yields: the AI SDK's preliminary results (`preliminary: true` in `streamText` and `useChat`). The
 * last value is the tool's output, with its own `toModelOutput` applied by the server. The call's
 * idempotency key is the AI SDK's tool call id, and the AI SDK's abort signal aborts the call.
 *
 * Each is keyed by its name for the model: the tool's id where every provider accepts it, else the
 * id with each other character `_` (`'Lookup order'` → `Lookup_order`); two ids with one name are
 * refused. `execute` calls the tool by its id.
 *
 * Approval: a tool that requires it (or may, by a rule only the server can evaluate) gets
 * `needsApproval: true`, so the AI SDK asks first; once approved there, `execute` approves the
 * server's run, with the same credentials that started it. A declined call never reaches the server.
 *
 * @example
 * const tools = await toAiSdkTools(createToolClient({ baseUrl }))
 * // stopWhen lets the model answer after the tool's result (one step, the default, ends at the call)
 * const { text } = await generateText({ model, tools, prompt: 'Weather in Lisbon?', stopWhen: stepCountIs(3) })
 */
export async function toAiSdkTools<T extends ToolSetLike, Id extends ToolIdOf<T> = ToolIdOf<T>>(
  client: ToolClient<T>,
  options: ToAiSdkToolsOptions<Id> = {},
): Promise<AiSdkToolsOf<T, Id>> {
  const wanted = options.tools ? new Set<string>(options.tools) : undefined
  const descriptors = (await client.list()).filter((descriptor) => !wanted || wanted.has(descriptor.id))
  const missing = [...(wanted ?? [])].filter((id) => !descriptors.some((descriptor) => descriptor.id === id))
  if (missing.length > 0) throw new ToolClientError('TOOL_NOT_FOUND', `The server has no tool ${missing.join(', ')}`, { status: 404 })
  const tools: Record<string, AiSdkTool> = {}
  const ids = new Map<string, string>()
  for (const descriptor of descriptors) {
    const name = aiSdkToolName(descriptor.id)
    const taken = ids.get(name)
    if (taken !== undefined) {
      throw new ToolClientError('UNEXPECTED_RESPONSE', `The server's tools ${JSON.stringify(taken)} and ${JSON.stringify(descriptor.id)} would both be the AI SDK tool ${JSON.stringify(name)}: pick one with \`tools\`, or rename one`)
    }
    ids.set(name, descriptor.id)
    tools[name] = toAiSdkTool(client as ToolClient, descriptor, options)
  }
  return tools as AiSdkToolsOf<T, Id>
}

function toAiSdkTool(client: ToolClient, descriptor: ToolDescriptor, options: ToAiSdkToolsOptions): AiSdkTool {
  const gated = descriptor.requireApproval !== false
  // Model outputs the server computed (`toModelOutput`), by tool call, until the AI SDK asks for them.
  const modelOutputs = new Map<string, ToolModelOutput>()
  const title = descriptor.mcp?.annotations?.title
  // An object typed as the AI SDK's `Tool`, not `tool()`'s generics: `tool()` is the identity at run
  // time, and its type parameters differ between AI SDK 6 and 7 (7 adds a context), both supported.
  const definition: AiSdkTool = {
    description: descriptor.description,
    ...(typeof title === 'string' ? { title } : {}),
    inputSchema: jsonSchema(descriptor.inputSchema as Parameters<typeof jsonSchema>[0]),
    ...(descriptor.strict !== undefined ? { strict: descriptor.strict } : {}),
    ...(descriptor.providerOptions ? { providerOptions: descriptor.providerOptions as never } : {}),
    ...(descriptor.inputExamples ? { inputExamples: descriptor.inputExamples } : {}),
    ...(gated ? { needsApproval: true } : {}),
    async *execute(input, { toolCallId, abortSignal }) {
      const signal = abortSignal ? { signal: abortSignal } : {}
      let runId = ''
      let cursor = 0
      let outputs = 0
      let approvalId: string | undefined
      let suspension: ToolSuspension | undefined
      async function* outputsOf(events: AsyncIterable<SequencedEvent>): AsyncGenerator<unknown> {
        for await (const { seq, event } of events) {
          cursor = seq
          switch (event.type) {
            case 'start':
              if (!runId) options.onRun?.({ toolId: descriptor.id, runId: event.messageMetadata.runId, toolCallId })
              runId = event.messageMetadata.runId
              break
            case 'tool-output-available':
              outputs += 1
              yield event.output
              break
            // What the tool wrote is a preliminary result too, as a local tool's yields are: the
            // AI SDK takes the last value as the result, and the tool's output always comes last.
            case 'data-tool-output':
              yield event.data.output
              break
            case 'data-tool-model-output':
              if (event.data.modelOutput.type !== 'json') modelOutputs.set(toolCallId, event.data.modelOutput)
              break
            case 'tool-approval-request':
              approvalId = event.approvalId
              break
            case 'data-tool-suspended':
              suspension = { toolId: descriptor.id, ...event.data }
              break
            case 'tool-input-error':
              throw new ToolClientError('INPUT_VALIDATION_FAILED', event.errorText, { status: 400, runId, toolCallId })
            case 'tool-output-error':
              throw new ToolClientError('EXECUTION_FAILED', event.errorText, { status: 500, runId, toolCallId })
            case 'tool-output-denied':
              throw new ToolClientError('RUN_STATE_CONFLICT', `Tool ${descriptor.id} was declined`, { status: 409, runId, toolCallId })
          }
        }
      }
      yield* outputsOf(client.stream(descriptor.id, input, { toolCallId, view: 'raw', requestContext: options.requestContext, ...signal }))
      // The run stopped to wait: approve it (the AI SDK already asked), or resume it (when the
      // application answers suspensions); the rest of its events follow from where the stream stopped.
      while (approvalId || suspension) {
        if (approvalId) {
          if (!gated) {
            yield { status: 'approval-required', runId, toolCallId, approvalId } satisfies PendingToolResult
            return
          }
          try {
            await client.approve(runId, { approvalId, ...signal })
          } catch (error) {
            // Approved already: a retried step replays its first call's events (the key is the
            // tool call id), and the run went on; what it did since follows from the cursor.
            if (!(ToolClientError.isInstance(error) && error.code === 'RUN_STATE_CONFLICT')) throw error
          }
          approvalId = undefined
        } else if (suspension) {
          if (!options.onSuspend) {
            const { toolId: _, ...pending } = suspension
            yield { status: 'suspended', ...pending } satisfies PendingToolResult
            return
          }
          const resumeData = await options.onSuspend(suspension)
          suspension = undefined
          await client.resume(runId, resumeData, signal)
        }
        yield* outputsOf(client.follow(runId, { after: cursor, view: 'raw', ...signal }))
      }
      if (outputs === 0) throw new ToolClientError('UNEXPECTED_RESPONSE', `Tool ${descriptor.id} ended without an output`, { runId, toolCallId })
    },
    toModelOutput({ toolCallId, output }) {
      const computed = modelOutputs.get(toolCallId)
      modelOutputs.delete(toolCallId)
      return (computed ?? { type: 'json', value: output ?? null }) as ReturnType<NonNullable<AiSdkTool['toModelOutput']>> & object
    },
  }
  return definition
}
