import { createRunEngine } from '../../runs/create-run-engine.ts'
import { driveRuns } from '../../runs/drive-runs.ts'
import type { AnyTool } from '../../tool/tool-types.ts'
import { createRunObjectClass, type RunObjectMount, type ToolRunObject, type ToolRunObjectOptions } from './create-run-object-class.ts'
import type { ObjectTracer } from '../../runs/call-tracer.ts'

/**
 * The Durable Object class that holds one run of `tools`, driven by the full run engine (approval,
 * suspend and resume, background attempts, cancellation, expiry and retention), and the
 * per-principal run index on the objects named `index:<principal>`; `mount` (webhooks) shares each object's store and alarm; `tracer` its spans.
 */
export function createToolRunObject(tools: ReadonlyMap<string, AnyTool>, options: ToolRunObjectOptions = {}, mount?: RunObjectMount, tracer?: ObjectTracer): new (ctx: DurableObjectState, env: unknown) => ToolRunObject {
  const drive = driveRuns(tools)
  return createRunObjectClass((engine, { env, ctx }) => createRunEngine({ ...engine, drive: tracer ? driveRuns(tools, tracer(env, (work) => ctx.waitUntil(work))) : drive }), options, mount)
}
