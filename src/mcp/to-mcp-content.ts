import type { ContentBlock } from '@modelcontextprotocol/server'
import type { ToolModelOutput, ToolModelOutputPart } from '../protocol/model-output.ts'

const text = (value: string): ContentBlock => ({ type: 'text', text: value })

/** The last path segment of a URL, as a resource link's name. */
function nameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '') || url
  } catch {
    return url
  }
}

function partToBlocks(part: ToolModelOutputPart): ContentBlock[] {
  switch (part.type) {
    case 'text':
      return [text(part.text)]
    case 'image-url':
      return [{ type: 'resource_link', uri: part.url, name: nameOf(part.url) }]
    case 'file-url':
      return [{ type: 'resource_link', uri: part.url, name: nameOf(part.url), ...(part.mediaType ? { mimeType: part.mediaType } : {}) }]
    case 'image-data':
    case 'file-data':
      if (part.type === 'image-data' || part.mediaType.startsWith('image/')) return [{ type: 'image', data: part.data, mimeType: part.mediaType }]
      if (part.mediaType.startsWith('audio/')) return [{ type: 'audio', data: part.data, mimeType: part.mediaType }]
      // MCP resources need a URI; an inline file has none, so it gets a name in a scheme of its own.
      return [{ type: 'resource', resource: { uri: `attachment:${encodeURIComponent(part.filename ?? 'file')}`, mimeType: part.mediaType, blob: part.data } }]
    case 'file-id':
    case 'image-file-id':
      // A provider's file id means nothing to an MCP client: say which file it was.
      return [text(`[${part.type} ${JSON.stringify(part.fileId)}]`)]
    case 'custom':
      return []
  }
}

/** What the model sees of a result, as MCP content blocks. */
export function toMcpContent(modelOutput: ToolModelOutput): ContentBlock[] {
  switch (modelOutput.type) {
    case 'text':
    case 'error-text':
      return [text(modelOutput.value)]
    case 'json':
    case 'error-json':
      return [text(JSON.stringify(modelOutput.value ?? null))]
    case 'execution-denied':
      return [text(modelOutput.reason ? `Execution denied: ${modelOutput.reason}` : 'Execution denied')]
    case 'content':
      return modelOutput.value.flatMap(partToBlocks)
  }
}
