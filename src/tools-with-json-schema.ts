/**
 * `toolroute/tools` everywhere but Workers (package.json's default condition; `workerd` and `worker`
 * get tools.ts): the same exports, with plain JSON Schema checked by @cfworker/json-schema from the
 * import on, so a `tool.execute()` in Node, Deno or Bun validates with nothing else to set up.
 * On Workers a size-conscious entry registers it only when a tool needs it (`createWorker({ jsonSchema })`).
 */
import { setJsonSchemaValidator } from './schema/json-schema-validator.ts'
import { cfworkerJsonSchema } from './schema/cfworker-json-schema.ts'

setJsonSchemaValidator(cfworkerJsonSchema)

export * from './tools.ts'
