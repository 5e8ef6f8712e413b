/**
 * Stands in for `ajv` and `ajv-formats` in the Worker bundle (wrangler.toml `[alias]`). The MCP
 * SDK imports Ajv for its default JSON Schema validator, but Ajv compiles schemas with
 * `new Function`, which Workers forbid, so it could never run there; toolroute passes the
 * cfworker validator everywhere instead. This keeps Ajv's dead code out of the bundle.
 */
export default function ajvUnavailable(): never {
  throw new Error('Ajv cannot run on Workers (no code generation): pass jsonSchemaValidator: new CfWorkerJsonSchemaValidator()')
}
