import { createTool } from 'toolroute'
import { z } from 'zod'

// A 1×1 PNG, so the example needs no network or image library.
const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

/** `toModelOutput` with an image part: the model sees a picture and a caption, the app gets the data. */
export const chartTool = createTool({
  id: 'chart-tool',
  description: 'Render a sales chart for a quarter',
  inputSchema: z.object({ quarter: z.enum(['Q1', 'Q2', 'Q3', 'Q4']) }),
  outputSchema: z.object({ quarter: z.string(), total: z.number(), png: z.string() }),
  execute: async ({ quarter }) => ({ quarter, total: 1200 + 100 * Number(quarter[1]), png: pixel }),
  // #region to-model-output
  toModelOutput: (output) => ({
    type: 'content',
    value: [
      { type: 'text', text: `Sales chart for ${output.quarter}: total ${output.total}` },
      { type: 'image-data', data: output.png, mediaType: 'image/png' },
    ],
  }),
  // #endregion
})
