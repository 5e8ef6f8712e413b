import { ToolrouteError } from '../errors/toolroute-error.ts'
import type { ValidationIssue } from '../protocol/error-codes.ts'
import { jsonSchemaValidator, type JsonSchemaCheck } from './json-schema-validator.ts'
import { expectedMessage, safeIssues } from './safe-issues.ts'
import type { SchemaLike, StandardJSONSchemaV1, StandardSchemaV1 } from './standard-schema.ts'
import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'

export type SchemaResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] }

/**
 * A schema as toolroute uses it: its JSON Schema, computed once, and a synchronous validator (a
 * Standard Schema's own; for plain JSON Schema the registered `JsonSchemaValidator`).
 */
export interface CompiledSchema<T = unknown> {
  readonly source: SchemaLike
  /** JSON Schema of what the schema accepts (draft 2020-12). */
  readonly jsonSchema: JSONSchemaObject
  /** JSON Schema of what the schema produces (differs from `jsonSchema` for transforms). */
  readonly outputJsonSchema: JSONSchemaObject
  /** `false` for a Standard Schema without Standard JSON Schema: it still validates, but `jsonSchema` is `{}`. */
  readonly describable: boolean
  validate(value: unknown): SchemaResult<T>
}

const DRAFT = 'draft-2020-12'

/** Whether a value implements Standard Schema (`~standard.validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard']
  return typeof standard === 'object' && standard !== null && typeof standard.validate === 'function'
}

function hasJsonSchema(value: StandardSchemaV1): value is StandardJSONSchemaV1 {
  const jsonSchema = (value['~standard'] as { jsonSchema?: { input?: unknown } }).jsonSchema
  return typeof jsonSchema?.input === 'function'
}

/**
 * Standard Schema paths hold keys or `{ key }` segments (Valibot); the wire wants plain keys.
 * `Array.from`, not `path.map`: ArkType's path is an Array subclass, and `map` would keep it.
 */
export function toIssuePath(path: StandardSchemaV1.Issue['path']): (string | number)[] {
  if (!path) return []
  return Array.from(path, (segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment
    return typeof key === 'number' ? key : String(key)
  })
}

/** What a schema that cannot describe itself is listed as: anything goes (its own validation still applies). */
const permissive: JSONSchemaObject = Object.freeze({}) as JSONSchemaObject

function describeStandard(schema: StandardJSONSchemaV1): { jsonSchema: JSONSchemaObject; outputJsonSchema: JSONSchemaObject } {
  const describe = schema['~standard'].jsonSchema
  const jsonSchema = describe.input({ target: DRAFT })
  try {
    return { jsonSchema, outputJsonSchema: describe.output({ target: DRAFT }) }
  } catch {
    return { jsonSchema, outputJsonSchema: jsonSchema }
  }
}

/**
 * A compiled Standard Schema. Its JSON Schema is computed when first read: a tool is often defined
 * without ever being listed, and Zod's conversion is most of a large app's startup (BENCHMARKS.md).
 * Without Standard JSON Schema it is still validated (unlike Mastra 1.71, which skips validation).
 */
class CompiledStandardSchema<T> implements CompiledSchema<T> {
  readonly source: StandardSchemaV1
  readonly name: string
  readonly describable: boolean
  readonly #vendor: string
  #described: { jsonSchema: JSONSchemaObject; outputJsonSchema: JSONSchemaObject } | undefined
  readonly #validate: StandardSchemaV1['~standard']['validate']

  constructor(source: StandardSchemaV1, name: string) {
    this.source = source
    this.name = name
    this.describable = hasJsonSchema(source)
    this.#validate = source['~standard'].validate
    this.#vendor = source['~standard'].vendor
  }

  get jsonSchema(): JSONSchemaObject {
    return this.#describe().jsonSchema
  }

  get outputJsonSchema(): JSONSchemaObject {
    return this.#describe().outputJsonSchema
  }

  #describe() {
    return (this.#described ??= hasJsonSchema(this.source) ? describeStandard(this.source) : { jsonSchema: permissive, outputJsonSchema: permissive })
  }

  validate(value: unknown): SchemaResult<T> {
    const result = this.#validate(value)
    if (result instanceof Promise) {
      throw new TypeError(`${this.name} is asynchronous; tool schemas must validate synchronously`)
    }
    return result.issues ? standardFailure(result.issues, this.#vendor, value) : { ok: true, value: result.value as T }
  }
}

/** A failure's issues carry where and what was expected, never the value (safe-issues.ts). */
function standardFailure(issues: ReadonlyArray<StandardSchemaV1.Issue>, vendor: string, value: unknown): SchemaResult<never> {
  return { ok: false, issues: safeIssues(Array.from(issues, (issue) => ({ path: toIssuePath(issue.path), message: expectedMessage(issue, vendor) })), value) }
}

/**
 * A compiled plain JSON Schema, its check compiled on the first `validate` by the validator
 * registered then (this module imports none, so a Worker without plain JSON Schemas bundles none).
 * Without one, every check fails with `EXECUTION_FAILED` saying what to pass: never skipped.
 */
class CompiledJsonSchema<T> implements CompiledSchema<T> {
  readonly source: SchemaLike
  readonly jsonSchema: JSONSchemaObject
  readonly outputJsonSchema: JSONSchemaObject
  readonly describable = true
  readonly name: string
  #check: JsonSchemaCheck | undefined
  #logged = false

  constructor(schema: JSONSchemaObject, name: string) {
    this.source = schema as SchemaLike
    this.jsonSchema = schema
    this.outputJsonSchema = schema
    this.name = name
  }

  validate(value: unknown): SchemaResult<T> {
    const issues = (this.#check ??= this.#compile())(value)
    return issues ? { ok: false, issues: safeIssues(issues, value) } : { ok: true, value: value as T }
  }

  #compile(): JsonSchemaCheck {
    const validator = jsonSchemaValidator()
    if (validator) return validator(this.jsonSchema)
    const error = new ToolrouteError(
      'EXECUTION_FAILED',
      `${this.name} is a plain JSON Schema, and no JSON Schema validator is registered: on Workers, pass \`jsonSchema: workerJsonSchema\` (from toolroute/workers) to createWorker, as the entry toolroute build writes does when a tool has one (or call \`setJsonSchemaValidator(workerJsonSchema)\` before calling the tool directly)`,
    )
    // The caller gets it with each call; the log once per schema, for whoever deploys.
    if (!this.#logged) {
      this.#logged = true
      console.error(`toolroute: ${error.message}`)
    }
    throw error
  }
}

/** Compiles any accepted schema once: a Standard Schema (without Standard JSON Schema listed as `{}`), or JSON Schema. */
export function compileSchema<T = unknown>(schema: SchemaLike, name: string): CompiledSchema<T> {
  if (isStandardSchema(schema)) return new CompiledStandardSchema<T>(schema, name)
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    return new CompiledJsonSchema<T>(schema as JSONSchemaObject, name)
  }
  throw new TypeError(`${name} must be a Standard Schema (Zod 4, ArkType, Valibot) or a JSON Schema object`)
}
