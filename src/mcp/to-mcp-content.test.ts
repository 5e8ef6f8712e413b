import { describe, expect, it } from 'vitest'
import { toMcpContent } from './to-mcp-content.ts'

describe('toMcpContent', () => {
  it('sends text as text and JSON as its text', () => {
    expect(toMcpContent({ type: 'text', value: 'hi' })).toEqual([{ type: 'text', text: 'hi' }])
    expect(toMcpContent({ type: 'json', value: { a: [1, 2] } })).toEqual([{ type: 'text', text: '{"a":[1,2]}' }])
    expect(toMcpContent({ type: 'json', value: undefined })).toEqual([{ type: 'text', text: 'null' }])
    expect(toMcpContent({ type: 'error-text', value: 'bad' })).toEqual([{ type: 'text', text: 'bad' }])
    expect(toMcpContent({ type: 'execution-denied', reason: 'no' })).toEqual([{ type: 'text', text: 'Execution denied: no' }])
  })

  it('sends images as image blocks (data) or resource links (URLs)', () => {
    expect(
      toMcpContent({
        type: 'content',
        value: [
          { type: 'text', text: 'chart' },
          { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
          { type: 'image-url', url: 'https://cdn.example.com/charts/q3%20sales.png' },
        ],
      }),
    ).toEqual([
      { type: 'text', text: 'chart' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'https://cdn.example.com/charts/q3%20sales.png', name: 'q3 sales.png' },
    ])
  })

  it('sends files as image, audio, embedded resource or link blocks, and drops provider-only parts', () => {
    expect(
      toMcpContent({
        type: 'content',
        value: [
          { type: 'file-data', data: 'AAAA', mediaType: 'image/jpeg' },
          { type: 'file-data', data: 'AAAA', mediaType: 'audio/wav' },
          { type: 'file-data', data: 'JVBERg==', mediaType: 'application/pdf', filename: 'q3 report.pdf' },
          { type: 'file-url', url: 'https://example.com/a.csv', mediaType: 'text/csv' },
          { type: 'file-id', fileId: 'file_123' },
          { type: 'custom' },
        ],
      }),
    ).toEqual([
      { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'attachment:q3%20report.pdf', mimeType: 'application/pdf', blob: 'JVBERg==' } },
      { type: 'resource_link', uri: 'https://example.com/a.csv', name: 'a.csv', mimeType: 'text/csv' },
      { type: 'text', text: '[file-id "file_123"]' },
    ])
  })
})
