// Direct tool execution, side by side in one process:
// - toolroute: `weatherTool.execute(input)` on the seed tool (tools/weather-tool.ts), bundled from src/;
// - plain:     `inputSchema.parse → execute → outputSchema.parse` with the very same Zod schemas and execute;
// - mastra:    `@mastra/core`'s createTool with the same definition (same schemas, same execute).
// Paths: success, and invalid input (each returns or throws a validation failure; execute never runs).
//
// node bench/run.mjs core [--rounds 15] [--sample-ms 150] [--json]
import { createTool as createMastraTool } from '@mastra/core/tools'
import { bundleToolroute } from './build-bundle.mjs'
import { compare, saveResult } from './measure.mjs'

const args = process.argv.slice(2)
const option = (flag, fallback) => {
  const index = args.indexOf(flag)
  return index === -1 ? fallback : Number(args[index + 1])
}
const rounds = option('--rounds', 15)
const sampleMs = option('--sample-ms', 150)

const { weatherTool } = await import(await bundleToolroute('core', `export { weatherTool } from './tools/weather-tool.ts'`))
const { inputSchema, outputSchema } = weatherTool
const execute = weatherTool.options.execute

const mastraTool = createMastraTool({
  id: weatherTool.id,
  description: weatherTool.description,
  inputSchema,
  outputSchema,
  execute,
})

async function plain(input) {
  try {
    const parsed = inputSchema.parse(input)
    return outputSchema.parse(await execute(parsed))
  } catch (error) {
    return { error: true, issues: error.issues }
  }
}

const valid = { location: 'Lisbon' }
const invalid = { location: 42 }
const paths = {
  success: {
    toolroute: () => weatherTool.execute(valid),
    plain: () => plain(valid),
    mastra: () => mastraTool.execute(valid),
  },
  'invalid input': {
    toolroute: () => weatherTool.execute(invalid),
    plain: () => plain(invalid),
    mastra: () => mastraTool.execute(invalid),
  },
}

// Every contender must do the same work before its time counts.
for (const [name, run] of Object.entries(paths.success)) {
  const result = await run()
  if (result?.location !== 'Lisbon' || result.conditions !== 'sunny') throw new Error(`${name}: unexpected success result ${JSON.stringify(result)}`)
}
for (const [name, run] of Object.entries(paths['invalid input'])) {
  const result = await run()
  if (result?.error !== true) throw new Error(`${name}: unexpected failure result ${JSON.stringify(result)}`)
}

console.log(`Node ${process.version}, ${rounds} rounds × ~${sampleMs} ms per contender, interleaved; medians`)
const report = {}
for (const [path, contenders] of Object.entries(paths)) {
  const results = await compare(contenders, { rounds, sampleMs, baseline: 'plain' })
  report[path] = results
  console.log(`\n${path}`)
  console.log('contender   ops/s        µs/call   time vs plain')
  for (const [name, { opsPerSecond, ratio }] of Object.entries(results)) {
    console.log(
      `${name.padEnd(11)} ${Math.round(opsPerSecond).toLocaleString('en-US').padStart(11)}  ${(1e6 / opsPerSecond).toFixed(2).padStart(8)}   ${ratio.toFixed(2)}×`,
    )
  }
}

const target = 1.2
const verdicts = Object.entries(report).map(([path, results]) => {
  const withinTarget = results.toolroute.ratio <= target
  const fasterThanMastra = results.toolroute.opsPerSecond > results.mastra.opsPerSecond
  return `${path}: ${withinTarget ? 'within' : 'OVER'} ${target}× of plain (${results.toolroute.ratio.toFixed(2)}×), ` +
    `${fasterThanMastra ? 'faster' : 'SLOWER'} than Mastra (${(results.toolroute.opsPerSecond / results.mastra.opsPerSecond).toFixed(1)}×)`
})
console.log(`\n${verdicts.join('\n')}`)

if (args.includes('--json')) {
  console.log(`\nwrote ${saveResult('core', { node: process.version, rounds, sampleMs, report })}`)
}
