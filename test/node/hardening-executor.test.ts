// Hardening: property-based tests over the executor (fast-check), direct `tool.execute` calls
// with random JSON Schemas as input and output schemas and random values:
// - a call never throws: it returns the output, or a validation error `{ error: true, message }`;
// - `execute` runs exactly when the input validated, once; never for a refused input;
// - an output that fails `outputSchema` is a validation error, never returned as output;
// - no message carries a stack trace; nothing lands on Object.prototype.
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { createTool, isValidationError, type JSONSchema } from 'toolroute'
import { jsonSchemaArbitrary, stackTracePattern, valueFor } from '../fixtures/hostile-requests.ts'
import { assertProperty, describeRuns, propertyTimeout } from '../fixtures/property-seeds.ts'
import { cfworkerJsonSchema } from '../../src/schema/cfworker-json-schema.ts'
import { setJsonSchemaValidator } from '../../src/schema/json-schema-validator.ts'

// Plain JSON Schemas below: checked as outside Workers, where `import 'toolroute'` registers the validator.
setJsonSchemaValidator(cfworkerJsonSchema)

const runs = { numRuns: Number(process.env.TOOLROUTE_PROPERTY_RUNS_EXECUTOR ?? 5000) }
const figures = { calls: 0, executed: 0, refusedInput: 0, refusedOutput: 0, completed: 0 }

const caseArbitrary = fc
  .tuple(jsonSchemaArbitrary, jsonSchemaArbitrary)
  .chain(([inputSchema, outputSchema]) =>
    fc.record({
      inputSchema: fc.constant(inputSchema),
      outputSchema: fc.option(fc.constant(outputSchema), { nil: undefined }),
      input: fc.oneof({ weight: 4, arbitrary: valueFor(inputSchema) }, { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) }),
      output: valueFor(outputSchema),
      prototypeKeys: fc.boolean(),
    }),
  )

/** An object input with own `__proto__` and `constructor` keys, as JSON.parse makes them. */
function withPrototypeKeys(input: unknown): unknown {
  let text: string | undefined
  try {
    text = JSON.stringify(input)
  } catch {
    return input
  }
  if (!text?.startsWith('{')) return input
  const rest = text === '{}' ? '}' : `,${text.slice(1)}`
  return JSON.parse(`{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}${rest}`)
}

describe('hardening: property-based executor', () => {
  afterAll(() => {
    console.log(`hardening/executor (node): ${figures.calls} direct calls with random schemas; ${figures.executed} executed, ${figures.refusedInput} refused on input (never executed), ${figures.refusedOutput} refused on output, ${figures.completed} completed; 0 properties failed`)
  })

  it(`random schemas and values (${describeRuns('executor', runs)}): validation errors are returned, execute runs only for valid input, no stack traces`, async () => {
    await assertProperty(
      'executor',
      fc.asyncProperty(caseArbitrary, async ({ inputSchema, outputSchema, input, output, prototypeKeys }) => {
        let executions = 0
        let seen: unknown
        const tool = createTool({
          id: 'random-tool',
          description: 'random',
          inputSchema: inputSchema as JSONSchema,
          ...(outputSchema ? { outputSchema: outputSchema as JSONSchema } : {}),
          execute: async (received: unknown) => {
            executions += 1
            seen = received
            return output as never
          },
        })
        const value = prototypeKeys ? withPrototypeKeys(input) : input
        figures.calls += 1
        let result: unknown
        try {
          result = await tool.execute!(value as never, {})
        } catch (error) {
          throw new Error(`tool.execute threw: ${error instanceof Error ? error.message : String(error)}`)
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        if (isValidationError(result)) {
          expect(typeof result.message).toBe('string')
          expect(stackTracePattern.test(result.message)).toBe(false)
          if (executions === 0) figures.refusedInput += 1
          else {
            // Refused after it ran: only the output can be at fault, and only with an outputSchema.
            expect(outputSchema).toBeDefined()
            expect(executions).toBe(1)
            figures.refusedOutput += 1
          }
          if (executions > 0) figures.executed += 1
          return
        }
        expect(executions).toBe(1)
        expect(seen).not.toBeUndefined()
        figures.executed += 1
        figures.completed += 1
        if (!outputSchema) expect(result).toEqual(output)
      }),
      runs,
    )
  }, propertyTimeout)
})
