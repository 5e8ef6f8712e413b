import { generateText, stepCountIs, type LanguageModel } from 'ai'
import { toAiSdkTools } from 'toolroute/ai'
import { createToolClient } from 'toolroute/client'

/** One question to an agent with a toolroute server's tools: it calls them, then answers from their results. */
export async function ask(model: LanguageModel, prompt: string, baseUrl: string): Promise<string> {
  const tools = await toAiSdkTools(createToolClient({ baseUrl }))
  // stopWhen lets the model answer after the tools' results: without it, generateText ends with the
  // step that called a tool, and `text` is ''.
  const { text } = await generateText({ model, tools, prompt, stopWhen: stepCountIs(5) })
  return text
}
