import { isStandardSchema } from '../schema/compile-schema.ts'
import { isBackgroundTool } from './is-background-tool.ts'
import type { AnyTool } from './tool-types.ts'

/** The longest id: MCP's limit on a tool name, which an id maps onto one character for one. */
export const maxToolIdLength = 128

const functionOptions = ['execute', 'toModelOutput', 'onInputStart', 'onInputDelta', 'onInputAvailable', 'onOutput'] as const
const schemaOptions = ['inputSchema', 'outputSchema', 'suspendSchema', 'resumeSchema', 'requestContextSchema'] as const
const transformPhases = new Set(['input', 'inputDelta', 'output', 'error', 'approval', 'suspend', 'resume'])

/** Fails at definition, naming the tool, for options that would otherwise fail on the first request. */
export function assertToolOptions(options: Record<string, any>): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createTool() needs an options object')
  const id = options.id
  const label = typeof id === 'string' ? `Tool "${id}"` : 'createTool()'
  const fail = (message: string): never => {
    throw new TypeError(`${label}: ${message}`)
  }
  // Any string, as in Mastra: the route encodes it and MCP gets a name mapped from it (SPEC §1).
  if (typeof id !== 'string' || id.length === 0 || id.length > maxToolIdLength) {
    fail(`id must be a non-empty string of at most ${maxToolIdLength} characters, got ${JSON.stringify(id)}`)
  }
  // A URL's dot segments are removed before any router sees them, encoded or not (`/tools/..` is `/`).
  if (id === '.' || id === '..') fail(`id ${JSON.stringify(id)} can never be called: its route /tools/${id} is a URL dot segment, which every client and router removes`)
  if (typeof options.description !== 'string' || options.description.trim() === '') fail('description must be a non-empty string')
  for (const key of functionOptions) {
    if (options[key] !== undefined && typeof options[key] !== 'function') fail(`${key} must be a function`)
  }
  for (const key of schemaOptions) {
    const schema = options[key]
    const isObject = typeof schema === 'object' && schema !== null && !Array.isArray(schema)
    if (schema !== undefined && !isObject && !isStandardSchema(schema)) {
      fail(`${key} must be a schema (Zod, ArkType, Valibot or a JSON Schema object)`)
    }
  }
  const approval = options.requireApproval
  if (approval !== undefined && typeof approval !== 'boolean' && typeof approval !== 'function') {
    fail('requireApproval must be a boolean or a function (input, { requestContext }) => boolean')
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean') fail('strict must be a boolean')
  if (options.outputValidation !== undefined && !['error', 'warn'].includes(options.outputValidation)) {
    fail('outputValidation must be "error" or "warn"')
  }
  for (const [target, phases] of Object.entries(options.transform ?? {})) {
    if (target !== 'display' && target !== 'transcript') fail(`transform.${target} is not a view (display, transcript)`)
    for (const [phase, fn] of Object.entries(phases ?? {})) {
      if (!transformPhases.has(phase)) fail(`transform.${target}.${phase} is not a phase (${[...transformPhases].join(', ')})`)
      if (typeof fn !== 'function') fail(`transform.${target}.${phase} must be a function`)
    }
  }
  const background = options.background
  if (background !== undefined) {
    if (typeof background !== 'object' || background === null) fail('background must be an object ({ enabled, timeoutMs, maxRetries })')
    for (const key of ['timeoutMs', 'maxRetries'] as const) {
      const value = background[key]
      if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
        fail(`background.${key} must be a non-negative number`)
      }
    }
  }
  if (options.inputExamples !== undefined) {
    const valid = Array.isArray(options.inputExamples) && options.inputExamples.every((example: any) => typeof example?.input === 'object' && example.input !== null)
    if (!valid) fail('inputExamples must be an array of { input: object }')
  }
  if (options.mcp !== undefined && (typeof options.mcp !== 'object' || options.mcp === null)) fail('mcp must be an object ({ annotations, _meta })')
  const taskSupport = options.mcp?.taskSupport
  if (taskSupport !== undefined && taskSupport !== 'optional' && taskSupport !== 'required') fail('mcp.taskSupport must be "optional" or "required"')
  // Only a background tool's call is a task: on any other the option could never apply.
  if (taskSupport === 'required' && !isBackgroundTool(options as AnyTool)) fail('mcp.taskSupport "required" needs a background tool (background: { enabled: true })')
  const askBeforeTask = options.mcp?.askBeforeTask
  if (askBeforeTask !== undefined && typeof askBeforeTask !== 'boolean') fail('mcp.askBeforeTask must be a boolean')
  if (askBeforeTask === true && !isBackgroundTool(options as AnyTool)) fail('mcp.askBeforeTask needs a background tool (background: { enabled: true })')
  if (options.providerOptions !== undefined && (typeof options.providerOptions !== 'object' || options.providerOptions === null)) {
    fail('providerOptions must be an object keyed by provider')
  }
}
