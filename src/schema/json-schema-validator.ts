import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'
import type { ValidationIssue } from '../protocol/error-codes.ts'

/** A plain JSON Schema's check: `undefined` when the value is valid, else what is wrong with it. */
export type JsonSchemaCheck = (value: unknown) => ValidationIssue[] | undefined

/** What compiles a plain JSON Schema (draft 2020-12) into its check (toolroute's: `workerJsonSchema`). */
export type JsonSchemaValidator = (schema: JSONSchemaObject) => JsonSchemaCheck

// One per isolate, not a tool option: a tool's schemas compile when its module loads, before any app exists.
let registered: JsonSchemaValidator | undefined

/**
 * Registers the validator every plain JSON Schema of this isolate compiles with, on its first
 * `validate`; set by whoever composes the app (on Workers `createWorker({ jsonSchema })`, only when
 * a tool has one, SPEC §11). `undefined` unregisters it.
 */
export function setJsonSchemaValidator(validator: JsonSchemaValidator | undefined): void {
  registered = validator
}

/** The registered validator, if any. */
export function jsonSchemaValidator(): JsonSchemaValidator | undefined {
  return registered
}
