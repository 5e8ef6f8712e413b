import type { JSONSchemaObject } from '../protocol/tool-descriptor.ts'
import type { ValidationIssue } from '../protocol/error-codes.ts'

/** A plain JSON Schema's check: `undefined` when the value is valid, else what is wrong with it. */
export type JsonSchemaCheck = (value: unknown) => ValidationIssue[] | undefined

/**
 * What compiles a plain JSON Schema (draft 2020-12) into its check. toolroute's own is
 * `@cfworker/json-schema`'s (`workerJsonSchema` from `toolroute/workers`), which needs no
 * `new Function` and so runs on Workers.
 */
export type JsonSchemaValidator = (schema: JSONSchemaObject) => JsonSchemaCheck

// One per isolate. Module state, not an option of each tool: a tool is defined (and its schemas
// compiled) when its module loads, before any app exists, and only checks its first value later.
let registered: JsonSchemaValidator | undefined

/**
 * Registers the validator every plain JSON Schema of this isolate compiles with, on its first
 * `validate`. Set by whoever composes the app: `import 'toolroute'` outside Workers,
 * `toolroute/server`'s `createToolApp`, the Deno adapter, and on Workers `createWorker({ jsonSchema })`,
 * which the build's entry passes only when a tool has a plain JSON Schema, so a Worker whose
 * schemas are all Standard Schemas (Zod, Valibot, ArkType) bundles no validator (SPEC §11).
 * `undefined` unregisters it.
 */
export function setJsonSchemaValidator(validator: JsonSchemaValidator | undefined): void {
  registered = validator
}

/** The registered validator, if any. */
export function jsonSchemaValidator(): JsonSchemaValidator | undefined {
  return registered
}
