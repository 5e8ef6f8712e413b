/**
 * The Standard Schema and Standard JSON Schema interfaces (https://standardschema.dev),
 * copied as types so toolroute depends on no schema library at run time.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>
    readonly types?: Types<Input, Output> | undefined
  }
  type Result<Output> = SuccessResult<Output> | FailureResult
  interface SuccessResult<Output> {
    readonly value: Output
    readonly issues?: undefined
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>
  }
  interface Issue {
    readonly message: string
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined
  }
  interface PathSegment {
    readonly key: PropertyKey
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input
    readonly output: Output
  }
}

/** Standard JSON Schema: a schema that can describe itself as JSON Schema. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & {
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
      readonly output: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
}

/** A plain JSON Schema object, as a tool author writes it by hand. */
export type JSONSchema = { readonly [key: string]: unknown } & (
  | { readonly type: unknown }
  | { readonly properties: unknown }
  | { readonly $ref: unknown }
  | { readonly anyOf: unknown }
  | { readonly oneOf: unknown }
  | { readonly allOf: unknown }
  | { readonly enum: unknown }
  | { readonly const: unknown }
)

/** Anything a tool accepts as a schema. */
export type SchemaLike<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> | JSONSchema

/** The parsed value type of a schema (`unknown` for plain JSON Schema, which carries no types). */
export type InferOutput<S> = S extends StandardSchemaV1<any, infer O> ? O : unknown
/** The accepted input type of a schema. */
export type InferInput<S> = S extends StandardSchemaV1<infer I, any> ? I : unknown
