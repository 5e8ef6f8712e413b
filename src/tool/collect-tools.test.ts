import { describe, expect, it } from 'vitest'
import { collectTools, isToolModuleFile } from './collect-tools.ts'
import { createTool } from '../runtime/create-tool.ts'

const tool = (id: string) => createTool({ id, description: 'A tool', execute: async () => ({}) })

describe('collectTools: the rules the build and Deno share', () => {
  it('finds the marked exports in order, each tool once (a re-export is the same object), skipping other values', () => {
    const alpha = tool('alpha')
    const { tools, problems } = collectTools([
      { file: 'tools/a.ts', exports: { alpha, helper: () => 1, config: { id: 'not-a-tool' } } },
      { file: 'tools/b.ts', exports: { again: alpha, beta: tool('Lookup order') } },
    ])
    expect(problems).toEqual([])
    expect(tools.map(({ id, mcpName, module, file, exportName }) => ({ id, mcpName, module, file, exportName }))).toEqual([
      { id: 'alpha', mcpName: 'alpha', module: 0, file: 'tools/a.ts', exportName: 'alpha' },
      { id: 'Lookup order', mcpName: 'Lookup_order', module: 1, file: 'tools/b.ts', exportName: 'beta' },
    ])
  })

  it('names both files of two tools with one id, or with ids of one MCP name, and an invalid id', () => {
    const { tools, problems } = collectTools([
      { file: 'tools/a.ts', exports: { first: tool('same'), spaced: tool('a b') } },
      { file: 'tools/b.ts', exports: { second: tool('same'), underscored: tool('a_b'), forged: { [Symbol.for('toolroute.tool')]: true, id: '' } } },
    ])
    expect(problems).toEqual([
      'tool id "same" is defined twice: tools/a.ts (export first) and tools/b.ts (export second)',
      'tool ids "a b" (tools/a.ts (export spaced)) and "a_b" (tools/b.ts (export underscored)) have one MCP name "a_b"',
      'invalid tool id "" in tools/b.ts (export forged): a non-empty string of at most 128 characters',
    ])
    expect(tools.map(({ id }) => id)).toEqual(['same', 'a b'])
  })

  it('takes modules, not tests, specs or declarations', () => {
    expect(['a.ts', 'b.mjs', 'c.js', 'd.mts'].every(isToolModuleFile)).toBe(true)
    expect(['a.test.ts', 'b.spec.mjs', 'c.d.ts', 'd.json', 'e.test-d.ts'].some(isToolModuleFile)).toBe(false)
  })
})
