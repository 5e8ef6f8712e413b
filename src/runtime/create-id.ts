/** A run id: a random UUID (122 random bits), so run ids cannot be guessed. */
export function createRunId(): string {
  return crypto.randomUUID()
}

/**
 * A tool call id in the AI SDK's style (`call_` + 24 hex digits), cut from a random UUID (cheaper
 * than `getRandomValues` in workerd), skipping its fixed version digit.
 */
export function createToolCallId(): string {
  const uuid = crypto.randomUUID()
  return `call_${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(15, 18)}${uuid.slice(19, 23)}${uuid.slice(24, 29)}`
}

const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

/** A short random id for spans and approvals. */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes))
  let hex = ''
  for (let index = 0; index < buffer.length; index++) hex += hexOfByte[buffer[index]!]
  return hex
}
