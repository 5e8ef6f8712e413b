/** `toolroute` everywhere but Workers: index.ts, with plain JSON Schema checked (see tools-with-json-schema.ts). */
import './tools-with-json-schema.ts'

export * from './index.ts'
