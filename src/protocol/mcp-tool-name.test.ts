import { describe, expect, it } from 'vitest'
import { mcpToolName, mcpToolNamePattern } from './mcp-tool-name.ts'

describe('mcpToolName', () => {
  it('keeps an id that is already an MCP name', () => {
    for (const id of ['weather-tool', 'orders.lookup', 'Get_Weather_2', 'a'.repeat(128)]) expect(mcpToolName(id)).toBe(id)
  })

  it('replaces every other character with _, one per code point', () => {
    expect(mcpToolName('Lookup order')).toBe('Lookup_order')
    expect(mcpToolName('tools/x?y#z')).toBe('tools_x_y_z')
    expect(mcpToolName('météo')).toBe('m_t_o')
    expect(mcpToolName('rocket 🚀')).toBe('rocket__')
  })

  it('always gives a valid MCP name for an id createTool accepts', () => {
    for (const id of [' ', 'é'.repeat(128), '🚀'.repeat(64), 'a b'.repeat(42)]) expect(mcpToolName(id)).toMatch(mcpToolNamePattern)
  })
})
