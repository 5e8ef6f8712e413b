/** A run id: a random UUID (122 random bits), so run ids cannot be guessed. */
export function createRunId(): string {
  return crypto.randomUUID()
}

/** A tool call id in the AI SDK's style (`call_` + 24 random hex digits). */
export function createToolCallId(): string {
  return `call_${randomHex(12)}`
}

/** A short random id for spans and approvals. */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes))
  let hex = ''
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0')
  return hex
}
