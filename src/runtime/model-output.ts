import type { ToolModelOutput } from '../protocol/model-output.ts'

const outputTypes = new Set(['text', 'json', 'content', 'error-text', 'error-json', 'execution-denied'])
const partTypes = new Set(['text', 'image-url', 'image-data', 'file-url', 'file-data', 'file-id', 'image-file-id', 'custom'])

/** Whether a value has the shape of a model output, so a mistake in `toModelOutput` is caught here, not by a provider. */
export function isToolModelOutput(value: unknown): value is ToolModelOutput {
  if (typeof value !== 'object' || value === null) return false
  const { type, value: inner } = value as { type?: unknown; value?: unknown }
  if (typeof type !== 'string' || !outputTypes.has(type)) return false
  if (type === 'text' || type === 'error-text') return typeof inner === 'string'
  if (type === 'content') {
    return Array.isArray(inner) && inner.every((part) => typeof part === 'object' && part !== null && partTypes.has(part.type))
  }
  return true
}

/** What the AI SDK sends a model when a tool has no `toModelOutput`. */
export function defaultModelOutput(output: unknown): ToolModelOutput {
  return { type: 'json', value: output ?? null }
}

/** `toModelOutput(output)` when the tool defines it (a string becomes a text output), else the default. */
export async function toModelOutputOf(
  toModelOutput: ((output: any) => unknown) | undefined,
  output: unknown,
): Promise<ToolModelOutput> {
  if (!toModelOutput) return defaultModelOutput(output)
  const result = await toModelOutput(output)
  if (typeof result === 'string') return { type: 'text', value: result }
  if (isToolModelOutput(result)) return result
  throw new TypeError('toModelOutput must return { type: "text" | "json" | "content", value }')
}
