// Types of greet-sources.mjs, for test/node/split-entries.test.ts.
export const greet: { zod: string; valibot: string; arktype: string }
