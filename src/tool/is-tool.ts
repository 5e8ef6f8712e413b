import { toolMarker, type Tool } from './tool-types.ts'

/** Whether a value is a tool made by `createTool` (works across bundle copies). */
export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[toolMarker] === true
}
