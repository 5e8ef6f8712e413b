import type { ValidationIssue } from '../protocol/error-codes.ts'
import type { StandardSchemaV1 } from './standard-schema.ts'

/**
 * Validation messages travel where the value that failed never may (SPEC §12), and Valibot and
 * ArkType quote it. So messages are rebuilt from what was expected (`expectedMessage`), and here,
 * whatever the library, a message that still quotes a string or number of the value is replaced.
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
 * Valibot's default `Invalid <what>: Expected <expected> but received <received>` (or `…: Received
 * <received>`), kept up to what was expected. A message of the schema's own stays.
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
 * ArkType's default `<path> must be <expected> (was <actual>)`, rebuilt as `must be <expected>`; a
 * union's from its branches' (its own quotes the value). A message the schema configured stays.
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

// Short leaves would match most messages by chance ("a" in "expected"); the walk is bounded.
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
