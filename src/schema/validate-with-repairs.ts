import type { ValidationIssue } from '../protocol/error-codes.ts'
import type { CompiledSchema, SchemaResult } from './compile-schema.ts'
import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'
import { nestsTooDeep } from '../protocol/json-depth.ts'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let node = root
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string | number, unknown>)[key]
  }
  return node
}

function withoutNullsAt(value: unknown, paths: Set<string>, at: string): unknown {
  if (Array.isArray(value)) return value.map((item, index) => withoutNullsAt(item, paths, at ? `${at}.${index}` : String(index)))
  if (!isPlainObject(value)) return value
  const result: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key
    if (item === null && paths.has(path)) continue
    result[key] = withoutNullsAt(item, paths, path)
  }
  return result
}

/** The JSON types a (JSON) schema allows, through `type` lists and `anyOf` / `oneOf` (nullable fields). */
function typesOf(schema: unknown, types = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return types
  const { type, anyOf, oneOf } = schema as JSONSchemaObject
  if (typeof type === 'string') types.add(type)
  else if (Array.isArray(type)) for (const item of type) if (typeof item === 'string') types.add(item)
  for (const branch of [anyOf, oneOf]) if (Array.isArray(branch)) for (const item of branch) typesOf(item, types)
  return types
}

/**
 * Top-level array or object fields that arrived as a JSON string (some models stringify nested
 * arguments), parsed; fields that may be strings are left alone. The same input when nothing changed.
 */
function withJsonStringsParsed(jsonSchema: JSONSchemaObject, input: unknown): unknown {
  const properties = jsonSchema.properties
  if (!isPlainObject(input) || !isPlainObject(properties)) return input
  let result: Record<string, unknown> | undefined
  for (const [key, value] of Object.entries(input)) {
    if (typeof value !== 'string' || !Object.hasOwn(properties, key)) continue
    const types = typesOf(properties[key])
    if (types.has('string')) continue
    const text = value.trim()
    const wantsArray = types.has('array') && text.startsWith('[')
    const wantsObject = types.has('object') && text.startsWith('{')
    // Past the depth limit, as a body would be (SPEC §12): left a string, so it fails validation (400), never the stack.
    if ((!wantsArray && !wantsObject) || nestsTooDeep(text)) continue
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      continue
    }
    if ((wantsArray && Array.isArray(parsed)) || (wantsObject && isPlainObject(parsed))) (result ??= { ...input })[key] = parsed
  }
  return result ?? input
}

/**
 * Validates, repairing models' habits before a failure counts, as Mastra does: `null`/`undefined`
 * for an object schema is `{}` (array: `[]`); a stringified array or object field is parsed; a
 * `null` that fails only for being `null` is dropped (absent, so it takes its default). A valid
 * value costs one validation.
 */
export function validateWithRepairs<T>(schema: CompiledSchema<T>, value: unknown): SchemaResult<T> {
  const input = value === undefined || value === null ? emptyFor(schema, value) : value
  const first = schema.validate(input)
  return first.ok ? first : retryRepaired(schema, input, first)
}

function emptyFor(schema: CompiledSchema, value: unknown): unknown {
  const type = schema.jsonSchema.type
  return type === 'object' ? {} : type === 'array' ? [] : value
}

function retryRepaired<T>(schema: CompiledSchema<T>, input: unknown, first: SchemaResult<T> & { ok: false }): SchemaResult<T> {
  let current = input
  let failure = first
  const parsed = withJsonStringsParsed(schema.jsonSchema, input)
  if (parsed !== input) {
    const retried = schema.validate(parsed)
    if (retried.ok) return retried
    current = parsed
    failure = retried
  }
  const nullPaths = new Set(
    failure.issues
      .filter((issue: ValidationIssue) => issue.path.length > 0 && valueAt(current, issue.path) === null)
      .map((issue) => issue.path.join('.')),
  )
  if (nullPaths.size === 0) return first
  const retried = schema.validate(withoutNullsAt(current, nullPaths, ''))
  return retried.ok ? retried : first
}
