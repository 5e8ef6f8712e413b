#!/usr/bin/env node
// Defining tools (issue #14): 1,000 tools with two five-field Zod schemas each, against building the
// same Zod schemas alone. The JSON Schema of a Standard Schema is computed when first read, so
// defining a tool should cost little beyond its schemas. Medians of 7 rounds, in one process.
// `npm run bench -- define` (Node 22 strips the sources' types: src/ keeps to erasable syntax).
import { z } from 'zod'
import { median } from './measure.mjs'

const { createTool } = await import('../src/tools.ts')
const count = 1000
const shape = () => z.object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.array(z.string()), e: z.enum(['x', 'y']) })

function time(work) {
  const start = performance.now()
  work()
  return performance.now() - start
}
const zodOnly = []
const tools = []
const listed = []
for (let round = 0; round < 7; round++) {
  zodOnly.push(time(() => { for (let i = 0; i < count; i++) (shape(), shape()) }))
  let defined = []
  tools.push(time(() => { defined = Array.from({ length: count }, (_, i) => createTool({ id: `t${i}`, description: 'd', inputSchema: shape(), outputSchema: shape(), execute: async (x) => x })) }))
  listed.push(time(() => { for (const tool of defined) void (tool.schemas.input.jsonSchema, tool.schemas.output.outputJsonSchema) }))
}
const [z0, t0, l0] = [median(zodOnly), median(tools), median(listed)]
console.log(`${count} tools, two Zod schemas each (medians of 7 rounds)`)
console.log(`  Zod schemas alone          ${z0.toFixed(0)} ms`)
console.log(`  createTool with them       ${t0.toFixed(0)} ms   (${(t0 / z0).toFixed(2)}× the schemas alone)`)
console.log(`  then their JSON Schemas    ${l0.toFixed(0)} ms   (paid on first listing, not at definition)`)
