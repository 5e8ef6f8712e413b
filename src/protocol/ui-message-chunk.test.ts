import { describe, expect, it } from 'vitest'
import type { ToolEvent } from './tool-event.ts'
import { fromUiMessageChunk, toUiMessageChunk, uiMessageStreamDialectOf } from './ui-message-chunk.ts'

const approved: ToolEvent = { type: 'tool-approval-response', approvalId: 'approval_1', approved: false, reason: 'no' }

describe('the UI message stream dialects (SPEC §3)', () => {
  it('sends tool-approval-response to AI SDK 6 readers as data-tool-approval-response, and reads it back', () => {
    const chunk = toUiMessageChunk(approved, 'ai6')
    expect(chunk).toEqual({ type: 'data-tool-approval-response', data: { approvalId: 'approval_1', approved: false, reason: 'no' } })
    expect(fromUiMessageChunk(chunk)).toEqual(approved)
  })

  it('sends AI SDK 7 readers the event itself; every other event is the same in both dialects', () => {
    expect(toUiMessageChunk(approved, 'ai7')).toBe(approved)
    expect(fromUiMessageChunk(approved)).toBe(approved)
    const output: ToolEvent = { type: 'tool-output-available', toolCallId: 'call_1', output: 1 }
    expect(toUiMessageChunk(output, 'ai6')).toBe(output)
    expect(fromUiMessageChunk(output)).toBe(output)
  })

  it('leaves a malformed data-tool-approval-response as it came (no data: nothing to read back)', () => {
    const malformed = { type: 'data-tool-approval-response', data: null } as never
    expect(fromUiMessageChunk(malformed)).toBe(malformed)
  })

  it('reads the dialect a request asks for: ?aiSdk=7 or v7, else ai6', () => {
    expect(['7', 'v7', '6', undefined, 'x'].map(uiMessageStreamDialectOf)).toEqual(['ai7', 'ai7', 'ai6', 'ai6', 'ai6'])
  })
})
