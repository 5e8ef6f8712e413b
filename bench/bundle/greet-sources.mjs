// The one tool of the apps bench/bundle.bench.mjs and test/node/split-entries.test.ts bundle: the greet tool
// of `toolroute init`, as a tools/ file in Zod, Valibot (wrapped for its JSON Schema) or ArkType.
import { exampleTool } from '../../cli/init.mjs'

/** tools/greet.ts of each app, by schema library: Zod's is `toolroute init`'s own. */
export const greet = {
  zod: exampleTool,
  valibot: `import { createTool } from 'toolroute'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'

export const greet = createTool({
  id: 'greet',
  description: 'Say hello to someone',
  inputSchema: toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)) })),
  outputSchema: toStandardJsonSchema(v.object({ message: v.string() })),
  execute: async ({ name }) => ({ message: \`Hello, \${name}!\` }),
})
`,
  arktype: `import { createTool } from 'toolroute'
import { type } from 'arktype'

export const greet = createTool({
  id: 'greet',
  description: 'Say hello to someone',
  inputSchema: type({ name: 'string > 0' }),
  outputSchema: type({ message: 'string' }),
  execute: async ({ name }) => ({ message: \`Hello, \${name}!\` }),
})
`,
}
