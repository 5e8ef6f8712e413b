import type { ValidationIssue } from '../protocol/error-codes.ts'
import type { StandardSchemaV1 } from './standard-schema.ts'

/**
 * Validation messages travel where the value that failed never may: error bodies, display and
 * transcript views, stored runs, MCP results, logs (SPEC §12). Valibot and ArkType quote it
 * (`Expected number but received "sk_live_…"`, `must be "a" (was "sk_live_…")`); Zod's and
 * @cfworker/json-schema's own messages do not (cfworker-json-schema.ts takes out the numbers and
 * lengths it quotes). So every issue's message is rebuilt here from what the library says was
 * expected, and the path says where. Then, whatever the library (Zod with a custom `error`, a
 * hand-written `~standard`, a registered JSON Schema validator), a message that still quotes a
 * string or number of the value is replaced by one that does not.
 */
export function safeIssues(issues: readonly ValidationIssue[], value: unknown): ValidationIssue[] {
  let quoted: string[] | undefined
  return issues.map((issue) => {
    quoted ??= quotableLeaves(value)
    // A hand-written schema may give no message at all.
    const message: unknown = issue.message
    return typeof message !== 'string' || quoted.some((leaf) => message.includes(leaf)) ? { path: issue.path, message: 'Invalid value' } : issue
  })
}

/** A Standard Schema issue's message, rebuilt from what its library says was expected. */
export function expectedMessage(issue: StandardSchemaV1.Issue, vendor: string): string {
  if (vendor === 'valibot') return valibotExpected(issue as ValibotIssue)
  if (vendor === 'arktype') return arktypeExpected(issue as ArkIssue)
  return issue.message
}

interface ValibotIssue extends StandardSchemaV1.Issue {
  readonly expected?: string | null
  readonly received?: string
}

/**
 * Valibot's default message is `Invalid <what>: Expected <expected> but received <received>` (or
 * `Invalid <what>: Received <received>`): kept up to what was expected. A message of the schema's
 * own (`v.string('Name is required')`) is the author's and stays.
 */
function valibotExpected({ message, expected, received }: ValibotIssue): string {
  if (typeof received !== 'string') return message
  if (expected && message.endsWith(` but received ${received}`)) return message.slice(0, -` but received ${received}`.length)
  const bare = `: Received ${received}`
  return message.endsWith(bare) ? message.slice(0, -bare.length) : message
}

interface ArkIssue extends StandardSchemaV1.Issue {
  readonly code?: string
  readonly expected?: string
  readonly problem?: string
  readonly propString?: string
  readonly errors?: readonly ArkIssue[]
  readonly path?: readonly PropertyKey[]
}

/**
 * ArkType's default message is `<path> must be <expected> (was <actual>)`: rebuilt as `must be
 * <expected>` (the path is the issue's). A union's `expected` is its whole message, the value
 * included: its branches' say what each expected. A message the schema configured stays.
 */
function arktypeExpected(issue: ArkIssue): string {
  const { message, problem, propString } = issue
  // A union's problem already names its path.
  if (typeof problem !== 'string' || (message !== problem && message !== `${propString} ${problem}`)) return message
  const expected = arkExpected(issue)
  if (expected === undefined) return 'Invalid value'
  return issue.code === 'required' ? `must be ${expected} (was missing)` : `must be ${expected}`
}

function arkExpected(issue: ArkIssue): string | undefined {
  if (issue.code !== 'union') return typeof issue.expected === 'string' ? issue.expected : undefined
  const branches = issue.errors ?? []
  const samePlace = branches.every((branch) => String(branch.path ?? []) === String(issue.path ?? []))
  if (!samePlace || branches.length === 0) return 'one of its alternatives'
  const expected = branches.map(arkExpected)
  return expected.every((item) => item !== undefined) ? expected.join(' or ') : undefined
}

// Short strings and numbers would match most messages by chance ("a" in "expected"), and say
// little of a value; a secret is longer. The walk is bounded: failures of huge values stay cheap.
const minimumQuoted = 3
const maximumLeaves = 1000

/** The strings and numbers of a value as a message could quote them, raw and JSON-escaped. */
function quotableLeaves(value: unknown): string[] {
  const leaves: string[] = []
  const pending: unknown[] = [value]
  try {
    for (let visited = 0; pending.length > 0 && visited < maximumLeaves; visited += 1) {
      const node = pending.pop()
      if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') {
        const text = String(node)
        if (text.length < minimumQuoted) continue
        leaves.push(text)
        const escaped = JSON.stringify(text).slice(1, -1)
        if (escaped !== text) leaves.push(escaped)
      } else if (typeof node === 'object' && node !== null) {
        for (const item of Array.isArray(node) ? node : Object.values(node)) {
          if (pending.length + visited >= maximumLeaves) break
          pending.push(item)
        }
      }
    }
  } catch {
    // A getter that throws: what was read so far is what can be checked.
  }
  return leaves
}
