import { createTool } from 'toolroute'
import { z } from 'zod'

/**
 * Suspend and resume: the tool pauses to ask which seat, the run waits (durably) for
 * `POST /runs/:runId/resume`, then `execute` runs again with `resumeData`.
 */
export const bookFlight = createTool({
  id: 'book-flight',
  description: 'Book a flight, asking the traveller to pick a seat',
  inputSchema: z.object({ from: z.string().length(3), to: z.string().length(3) }),
  outputSchema: z.object({ confirmation: z.string(), seat: z.string() }),
  suspendSchema: z.object({ question: z.string(), seats: z.array(z.string()) }),
  resumeSchema: z.object({ seat: z.string().regex(/^\d{1,2}[A-F]$/) }),
  execute: async ({ from, to }, { resumeData, suspend }) => {
    if (!resumeData) return suspend({ question: `Which seat on ${from}→${to}?`, seats: ['12A', '12B', '14C'] })
    return { confirmation: `${from}-${to}-${resumeData.seat}`, seat: resumeData.seat }
  },
})
