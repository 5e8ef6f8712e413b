import { createEventProjector } from '../runs/create-event-projector.ts'
import type { RunRecord } from '../runs/run-record.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import type { ElicitRequestParams } from '../tool/tool-execution-context.ts'
import { toElicitationSchema, type ElicitationSchema } from './to-elicitation-schema.ts'

/** How many times a resume form is asked (in all) while its answers fail `resumeSchema`, in either generation. */
export const maxResumeAttempts = 3

const approvalSchema: ElicitationSchema = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', title: 'Approve', description: 'Run the tool with these arguments' },
    reason: { type: 'string', title: 'Reason', description: 'Why not (optional, when declining)' },
  },
  required: ['approved'],
}

/** What the user is shown of a payload: its display view, never the raw value a transform hides. */
export async function shown(tool: AnyTool, run: RunRecord, phase: 'input' | 'suspend'): Promise<unknown> {
  const project = createEventProjector(tool, 'display', { input: run.input })
  if (phase === 'input') {
    const event = await project({ type: 'tool-input-available', toolCallId: run.toolCallId, toolName: tool.id, input: run.input })
    return event?.type === 'tool-input-available' ? event.input : undefined
  }
  const event = await project({ type: 'data-tool-suspended', data: { runId: run.runId, toolCallId: run.toolCallId, suspendPayload: run.suspendPayload } })
  return event?.type === 'data-tool-suspended' ? event.data.suspendPayload : undefined
}

const titleOf = (tool: AnyTool): string => (typeof tool.mcp?.annotations?.title === 'string' ? tool.mcp.annotations.title : tool.id)

function questionOf(tool: AnyTool, payload: unknown): string {
  if (typeof payload === 'string') return payload
  const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>
  const question = [fields.question, fields.message, fields.prompt].find((value) => typeof value === 'string') as string | undefined
  const details = payload === undefined ? '' : `\n\n${JSON.stringify(payload, null, 2)}`
  return `${question ?? `${titleOf(tool)} needs more input to continue.`}${details}`
}

/** The approval form for a run waiting for approval (what the user sees of its input is its display view). */
export async function approvalQuestion(tool: AnyTool, run: RunRecord): Promise<ElicitRequestParams> {
  const input = await shown(tool, run, 'input')
  return {
    message: `Allow ${titleOf(tool)} to run with these arguments?\n\n${JSON.stringify(input ?? null, null, 2)}`,
    requestedSchema: approvalSchema as unknown as Record<string, unknown>,
  }
}

/** The resume form of a suspended run (its `resumeSchema`), or `undefined` when a form cannot express it. */
export async function resumeQuestion(tool: AnyTool, run: RunRecord, problem = ''): Promise<ElicitRequestParams | undefined> {
  const requestedSchema = toElicitationSchema(tool.schemas.resume?.jsonSchema)
  if (!requestedSchema) return undefined
  const question = questionOf(tool, await shown(tool, run, 'suspend'))
  return { message: `${question}${problem}`, requestedSchema: requestedSchema as unknown as Record<string, unknown> }
}

