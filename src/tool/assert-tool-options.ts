import { isStandardSchema } from '../schema/compile-schema.ts'
import { isBackgroundTool } from '../protocol/is-background-tool.ts'
import type { AnyTool } from './tool-types.ts'

/** The longest id: MCP's limit on a tool name, which an id maps onto one character for one. */
export const maxToolIdLength = 128

type Options = Record<string, any>
/** The problem with one option, as the message says it (without the tool's name); none when it is fine. */
type Check = (options: Options) => string | undefined

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null
const isBoolean = (value: unknown): boolean => typeof value === 'boolean'
const isFunction = (value: unknown): boolean => typeof value === 'function'
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0
const needsBackground = 'needs a background tool (background: { enabled: true })'

/** The option at `path` (`mcp.taskSupport`), when set, must pass `test`: else `<path> <what>`. */
const must =
  (path: string, test: (value: any, options: Options) => boolean, what: string): Check =>
  (options) => {
    const value = path.split('.').reduce<any>((at, key) => at?.[key], options)
    return value === undefined || test(value, options) ? undefined : `${path} ${what}`
  }

const transformPhases = new Set(['input', 'inputDelta', 'output', 'error', 'approval', 'suspend', 'resume'])

const transformProblem: Check = (options) => {
  for (const [target, phases] of Object.entries(options.transform ?? {})) {
    if (target !== 'display' && target !== 'transcript') return `transform.${target} is not a view (display, transcript)`
    for (const [phase, fn] of Object.entries(phases ?? {})) {
      if (!transformPhases.has(phase)) return `transform.${target}.${phase} is not a phase (${[...transformPhases].join(', ')})`
      if (!isFunction(fn)) return `transform.${target}.${phase} must be a function`
    }
  }
  return undefined
}

/** Every option's check, in the order they run: the first problem is the one reported. */
const checks: Check[] = [
  ...['execute', 'toModelOutput', 'onInputStart', 'onInputDelta', 'onInputAvailable', 'onOutput'].map((key) => must(key, isFunction, 'must be a function')),
  ...['inputSchema', 'outputSchema', 'suspendSchema', 'resumeSchema', 'requestContextSchema'].map((key) =>
    must(key, (schema) => (isObject(schema) && !Array.isArray(schema)) || isStandardSchema(schema), 'must be a schema (Zod, ArkType, Valibot or a JSON Schema object)'),
  ),
  must('requireApproval', (rule) => isBoolean(rule) || isFunction(rule), 'must be a boolean or a function (input, { requestContext }) => boolean'),
  must('strict', isBoolean, 'must be a boolean'),
  must('outputValidation', (mode) => mode === 'error' || mode === 'warn', 'must be "error" or "warn"'),
  transformProblem,
  must('background', isObject, 'must be an object ({ enabled, timeoutMs, maxRetries })'),
  must('background.timeoutMs', isCount, 'must be a non-negative number'),
  must('background.maxRetries', isCount, 'must be a non-negative number'),
  must('inputExamples', (examples) => Array.isArray(examples) && examples.every((example) => isObject(example?.input)), 'must be an array of { input: object }'),
  must('mcp', isObject, 'must be an object ({ annotations, _meta })'),
  must('mcp.taskSupport', (support) => support === 'optional' || support === 'required', 'must be "optional" or "required"'),
  // Only a background tool's call is a task: on any other the option could never apply.
  must('mcp.taskSupport', (support, options) => support !== 'required' || isBackgroundTool(options as AnyTool), `"required" ${needsBackground}`),
  must('mcp.askBeforeTask', isBoolean, 'must be a boolean'),
  must('mcp.askBeforeTask', (ask, options) => ask !== true || isBackgroundTool(options as AnyTool), needsBackground),
  must('providerOptions', isObject, 'must be an object keyed by provider'),
]

/** Fails at definition, naming the tool, for options that would otherwise fail on the first request. */
export function assertToolOptions(options: Options): void {
  if (!isObject(options)) throw new TypeError('createTool() needs an options object')
  const id = options.id
  const fail = (message: string): never => {
    throw new TypeError(`${typeof id === 'string' ? `Tool "${id}"` : 'createTool()'}: ${message}`)
  }
  // Any string, as in Mastra: the route encodes it and MCP gets a name mapped from it (SPEC §1).
  if (typeof id !== 'string' || id.length === 0 || id.length > maxToolIdLength) {
    fail(`id must be a non-empty string of at most ${maxToolIdLength} characters, got ${JSON.stringify(id)}`)
  }
  // A URL's dot segments are removed before any router sees them, encoded or not (`/tools/..` is `/`).
  if (id === '.' || id === '..') fail(`id ${JSON.stringify(id)} can never be called: its route /tools/${id} is a URL dot segment, which every client and router removes`)
  if (typeof options.description !== 'string' || options.description.trim() === '') fail('description must be a non-empty string')
  for (const check of checks) {
    const problem = check(options)
    if (problem) fail(problem)
  }
}
