import { Validator, type OutputUnit } from '@cfworker/json-schema'
import type { ValidationIssue } from '../protocol/error-codes.ts'
import type { JsonSchemaValidator } from './json-schema-validator.ts'

// Wrapper errors that only say "a child failed"; the child's own error says what.
const wrapperKeywords = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'additionalProperties', 'unevaluatedProperties'])

function pointerToPath(pointer: string): (string | number)[] {
  const trimmed = pointer.replace(/^#\/?/, '')
  if (trimmed === '') return []
  return trimmed.split('/').map((part) => {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')
    return /^\d+$/.test(key) ? Number(key) : key
  })
}

const boundsKeywords = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])
const lengthKeywords = new Set(['minLength', 'maxLength', 'minItems', 'maxItems'])

/**
 * @cfworker/json-schema's message without what it says of the instance: the bounds keywords open
 * with the number (`1234 is greater than 10.`), the length keywords quote the length (`(31 > 20)`).
 */
function expectedOnly({ keyword, error }: OutputUnit): string {
  if (boundsKeywords.has(keyword)) return error.replace(/^\S+ is /, 'Value is ').replace(/ {2,}/g, ' ')
  if (!lengthKeywords.has(keyword)) return error
  return error.replace(/\(\d+ ([<>]) (\d+)\)/, (_, sign: string, limit: string) => `(${sign === '<' ? 'at least' : 'at most'} ${limit})`)
}

/**
 * A direct call may pass what JSON cannot carry (an `undefined` field, a function), on which
 * @cfworker/json-schema throws: it is checked as JSON would carry it (the tool still gets it as given).
 */
function asJson(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? { ok: false } : { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const notJson: ValidationIssue[] = [{ path: [], message: 'Value is not representable as JSON.' }]

/**
 * Plain JSON Schema (draft 2020-12) checked by @cfworker/json-schema, which needs no `new Function`
 * and so runs on Workers. Imported only by whoever registers it, so a Worker without one never bundles it.
 */
export const cfworkerJsonSchema: JsonSchemaValidator = (schema) => {
  const validator = new Validator(schema as never, '2020-12', false)
  const issuesOf = (errors: OutputUnit[]): ValidationIssue[] => {
    const leaves = errors.filter((error) => !wrapperKeywords.has(error.keyword))
    return (leaves.length > 0 ? leaves : errors).map((error) => ({ path: pointerToPath(error.instanceLocation), message: expectedOnly(error) }))
  }
  return (value) => {
    let result
    try {
      result = validator.validate(value)
    } catch {
      // Off the hot path: only a value JSON cannot carry gets here (a schema fault throws again below).
      const json = asJson(value)
      if (!json.ok) return notJson
      result = validator.validate(json.value)
    }
    return result.valid ? undefined : issuesOf(result.errors)
  }
}
