// docs/agents.md shows the examples' own code: each block after `<!-- from: <path>[#<region>] -->`
// is that file, or the part of it between `#region <region>` and `#endregion`, as it is. The
// examples' tests run the code; this keeps the page from drifting away from it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const page = readFileSync('docs/agents.md', 'utf8')
const blocks = [...page.matchAll(/<!-- from: (\S+?) -->\n(?:<!-- not-run: [^\n]* -->\n)?```\w+\n([\s\S]*?)\n```/g)].map(([, from, code]) => ({ from: from!, code: code! }))

function dedent(text: string): string {
  const indent = Math.min(...text.split('\n').filter((line) => line.trim()).map((line) => /^ */.exec(line)![0].length))
  return text.split('\n').map((line) => line.slice(indent)).join('\n')
}

function sourceOf(from: string): string {
  const [path, region] = from.split('#') as [string, string | undefined]
  const text = readFileSync(path, 'utf8')
  if (!region) return text.replace(/\n+$/, '')
  const lines = text.split('\n')
  const start = lines.findIndex((line) => new RegExp(`#region ${region}\\b`).test(line))
  const end = lines.findIndex((line, index) => index > start && line.includes('#endregion'))
  if (start < 0 || end < 0) throw new Error(`${path} has no region ${region}`)
  return dedent(lines.slice(start + 1, end).join('\n')).replace(/\n+$/, '')
}

describe('docs/agents.md', () => {
  it('shows the generateText recipe, the approval round trip and the mock model, the chat route, the useChat page, the Agents SDK agent and the Mastra one', () => {
    expect(blocks.map((block) => block.from)).toEqual([
      'examples/chat-agent/src/ask.ts',
      'test/node/recipes/ask-with-approval.ts',
      'test/node/recipes/scripted-model.ts',
      'examples/chat-agent/src/worker.ts#chat-route',
      'examples/chat-agent/src/page.tsx#use-chat',
      'examples/chat-agent/src/page.tsx#approve',
      'examples/agents-sdk/src/agent.ts#agent',
      'examples/mastra-agent/src/agent.ts',
    ])
  })

  it.each(blocks)('$from is in the page as the example has it', ({ from, code }) => {
    expect(code).toBe(sourceOf(from))
  })

  it('gives generateText a stopWhen', () => {
    expect(blocks[0]!.code).toContain('stopWhen: stepCountIs(')
  })
})
