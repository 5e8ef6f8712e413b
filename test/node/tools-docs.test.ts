// docs/tools.md's recipes (issue #49) are the example tools' own code: each block after
// `<!-- from: <path>#<region> -->` is that region of the file as it is. The example tools' tests
// (test/workers/tool-routes.test.ts) run the code; this keeps the page from drifting away from it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const page = readFileSync('docs/tools.md', 'utf8')
const blocks = [...page.matchAll(/<!-- from: (\S+?) -->\n```\w+\n([\s\S]*?)\n```/g)].map(([, from, code]) => ({ from: from!, code: code! }))

function regionOf(from: string): string {
  const [path, region] = from.split('#') as [string, string]
  const lines = readFileSync(path, 'utf8').split('\n')
  const start = lines.findIndex((line) => line.includes(`#region ${region}`))
  const end = lines.findIndex((line, index) => index > start && line.includes('#endregion'))
  if (start < 0 || end < 0) throw new Error(`${path} has no region ${region}`)
  const body = lines.slice(start + 1, end)
  const indent = Math.min(...body.filter((line) => line.trim()).map((line) => /^ */.exec(line)![0].length))
  return body.map((line) => line.slice(indent)).join('\n')
}

describe('docs/tools.md recipes', () => {
  it('shows toModelOutput and transform from the example tools', () => {
    expect(blocks.map((block) => block.from)).toEqual(['tools/chart-tool.ts#to-model-output', 'tools/lookup-customer.ts#transform'])
  })

  it.each(blocks)('$from is in the page as the tool has it', ({ from, code }) => {
    expect(code).toBe(regionOf(from))
  })
})
