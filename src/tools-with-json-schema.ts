/** `toolroute/tools` everywhere but Workers: tools.ts, with plain JSON Schema checked (see index-with-json-schema.ts). */
import { setJsonSchemaValidator } from './schema/json-schema-validator.ts'
import { cfworkerJsonSchema } from './schema/cfworker-json-schema.ts'

setJsonSchemaValidator(cfworkerJsonSchema)

export * from './tools.ts'
