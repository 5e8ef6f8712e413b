import { Validator } from '@cfworker/json-schema'
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

/**
 * Plain JSON Schema (draft 2020-12) checked by @cfworker/json-schema, which needs no
 * `new Function` and so runs on Workers. Its own module, imported only by whoever registers it
 * (`setJsonSchemaValidator`), so a Worker without plain JSON Schemas never bundles it.
 */
export const cfworkerJsonSchema: JsonSchemaValidator = (schema) => {
  const validator = new Validator(schema as never, '2020-12', false)
  return (value) => {
    const result = validator.validate(value)
    if (result.valid) return undefined
    const leaves = result.errors.filter((error) => !wrapperKeywords.has(error.keyword))
    return (leaves.length > 0 ? leaves : result.errors).map((error) => ({ path: pointerToPath(error.instanceLocation), message: error.error }))
  }
}
