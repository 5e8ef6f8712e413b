import { createTool } from 'toolroute'
import { z } from 'zod'

// The suite's fixtures: a 1×1 red PNG and a minimal WAV.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const wav = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA='

/** tools-call-simple-text */
export const testSimpleText = createTool({
  id: 'test_simple_text',
  description: 'Tests simple text content response',
  inputSchema: z.object({}),
  execute: async () => 'This is a simple text response for testing.',
  toModelOutput: (output) => ({ type: 'text', value: output }),
})

/** tools-call-image */
export const testImageContent = createTool({
  id: 'test_image_content',
  description: 'Tests image content response',
  inputSchema: z.object({}),
  execute: async () => ({ png }),
  toModelOutput: (output) => ({ type: 'content', value: [{ type: 'image-data', data: output.png, mediaType: 'image/png' }] }),
})

/** tools-call-audio */
export const testAudioContent = createTool({
  id: 'test_audio_content',
  description: 'Tests audio content response',
  inputSchema: z.object({}),
  execute: async () => ({ wav }),
  toModelOutput: (output) => ({ type: 'content', value: [{ type: 'file-data', data: output.wav, mediaType: 'audio/wav' }] }),
})

/**
 * tools-call-embedded-resource: a text resource at test://embedded-resource. A model output's parts
 * have no text resource with a URI of its own yet (issue #28 item 4): this is the closest mapping.
 */
export const testEmbeddedResource = createTool({
  id: 'test_embedded_resource',
  description: 'Tests embedded resource content response',
  inputSchema: z.object({}),
  execute: async () => ({ uri: 'test://embedded-resource', text: 'This is an embedded resource content.' }),
  toModelOutput: (output) => ({
    type: 'content',
    value: [{ type: 'file-data', data: btoa(output.text), mediaType: 'text/plain', filename: output.uri }],
  }),
})

/** tools-call-mixed-content */
export const testMultipleContentTypes = createTool({
  id: 'test_multiple_content_types',
  description: 'Tests response with multiple content types (text, image, resource)',
  inputSchema: z.object({}),
  execute: async () => ({ png, json: JSON.stringify({ test: 'data', value: 123 }) }),
  toModelOutput: (output) => ({
    type: 'content',
    value: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image-data', data: output.png, mediaType: 'image/png' },
      { type: 'file-data', data: btoa(output.json), mediaType: 'application/json', filename: 'test://mixed-content-resource' },
    ],
  }),
})

/** tools-call-error: a tool that throws is an isError result carrying its message. */
export const testErrorHandling = createTool({
  id: 'test_error_handling',
  description: 'Tests error response handling',
  inputSchema: z.object({}),
  execute: async () => {
    throw new Error('This tool intentionally returns an error for testing')
  },
})

/** tasks-lifecycle's sync-only tool. */
export const greet = createTool({
  id: 'greet',
  description: 'Sync-only: says hello',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => `Hello, ${name}!`,
  toModelOutput: (output) => ({ type: 'text', value: output }),
})
