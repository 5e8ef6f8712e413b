import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'

/** The restricted JSON Schema an MCP form elicitation may request: a flat object of primitives. */
export type ElicitationSchema = { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] }

const formats = new Set(['email', 'uri', 'date', 'date-time'])
const common = ['title', 'description'] as const

function pick(schema: JSONSchemaObject, keys: readonly string[], check: (value: unknown) => boolean): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in schema && check(schema[key])).map((key) => [key, schema[key]]))
}

const isString = (value: unknown) => typeof value === 'string'
const isNumber = (value: unknown) => typeof value === 'number'
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString)

/** One property as an elicitation primitive, or `undefined` when it is not one. */
function toPrimitive(schema: unknown): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined
  const property = schema as JSONSchemaObject
  const type = property.type ?? (isStringArray(property.enum) ? 'string' : undefined)
  const described = pick(property, common, isString)
  switch (type) {
    case 'string': {
      if (property.enum !== undefined) {
        if (!isStringArray(property.enum)) return undefined
        return { type, ...described, enum: property.enum, ...pick(property, ['default'], isString) }
      }
      const format = isString(property.format) && formats.has(property.format as string) ? { format: property.format } : {}
      return { type, ...described, ...pick(property, ['minLength', 'maxLength'], isNumber), ...format, ...pick(property, ['default'], isString) }
    }
    case 'number':
    case 'integer':
      return { type, ...described, ...pick(property, ['minimum', 'maximum', 'default'], isNumber) }
    case 'boolean':
      return { type, ...described, ...pick(property, ['default'], (value) => typeof value === 'boolean') }
    case 'array': {
      const items = property.items as JSONSchemaObject | undefined
      if (!items || !isStringArray(items.enum)) return undefined
      return { type, ...described, items: { type: 'string', enum: items.enum }, ...pick(property, ['minItems', 'maxItems'], isNumber) }
    }
    default:
      return undefined
  }
}

/**
 * A `resumeSchema` as an elicitation's `requestedSchema`, `undefined` when it does not fit MCP's flat
 * form. Keywords a form cannot carry are left out: the answer is still validated against the full schema.
 */
export function toElicitationSchema(schema: JSONSchemaObject | undefined): ElicitationSchema | undefined {
  if (!schema || schema.type !== 'object') return undefined
  if (['anyOf', 'oneOf', 'allOf', '$ref', 'not', 'if', 'patternProperties'].some((key) => key in schema)) return undefined
  const source = schema.properties
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined
  const properties: ElicitationSchema['properties'] = {}
  for (const [key, value] of Object.entries(source)) {
    const primitive = toPrimitive(value)
    if (!primitive) return undefined
    properties[key] = primitive
  }
  const required = isStringArray(schema.required) ? schema.required.filter((key) => key in properties) : []
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) }
}
