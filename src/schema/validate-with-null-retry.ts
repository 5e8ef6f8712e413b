import type { ValidationIssue } from '../errors/toolroute-error.ts'
import type { CompiledSchema, SchemaResult } from './compile-schema.ts'

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

/**
 * Validates, and when a field fails only because a model sent `null` for it, drops those
 * nulls and validates once more, so `null` for an optional field counts as absent (models
 * do this constantly). Nulls that a nullable field accepts are left alone. The retry is off
 * the hot path: a valid value costs one validation and nothing else.
 */
export function validateWithNullRetry<T>(schema: CompiledSchema<T>, value: unknown): SchemaResult<T> {
  // A model that sends nothing (or null) for an object whose fields are all optional means {}.
  const input = (value === undefined || value === null) && schema.jsonSchema.type === 'object' ? {} : value
  const first = schema.validate(input)
  return first.ok ? first : retryWithoutNulls(schema, input, first)
}

function retryWithoutNulls<T>(schema: CompiledSchema<T>, input: unknown, first: SchemaResult<T> & { ok: false }): SchemaResult<T> {
  const nullPaths = new Set(
    first.issues
      .filter((issue: ValidationIssue) => issue.path.length > 0 && valueAt(input, issue.path) === null)
      .map((issue) => issue.path.join('.')),
  )
  if (nullPaths.size === 0) return first
  const retried = schema.validate(withoutNullsAt(input, nullPaths, ''))
  return retried.ok ? retried : first
}
