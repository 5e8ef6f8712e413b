import type { ValidationIssue } from '../protocol/error-codes.ts'

/**
 * Mastra's nested error shape: messages at this level in `errors`, nested fields under `fields`.
 * Kept identical so code written against Mastra's `validationErrors` reads ours unchanged.
 */
export interface FormattedValidationErrors {
  errors: string[]
  fields: Record<string, FormattedValidationErrors>
}

/** What a direct `tool.execute()` returns instead of throwing when validation fails. */
export interface ValidationError {
  error: true
  message: string
  validationErrors: FormattedValidationErrors
}

/** Builds Mastra's nested `validationErrors` from flat issues. */
export function formatValidationErrors(issues: readonly ValidationIssue[]): FormattedValidationErrors {
  const root: FormattedValidationErrors = { errors: [], fields: {} }
  for (const issue of issues) {
    let node = root
    for (const segment of issue.path) {
      const key = String(segment)
      // Own properties only: an input key `__proto__` or `constructor` would walk into Object.prototype.
      let next = Object.hasOwn(node.fields, key) ? node.fields[key] : undefined
      if (!next) {
        next = { errors: [], fields: {} }
        Object.defineProperty(node.fields, key, { value: next, enumerable: true, writable: true, configurable: true })
      }
      node = next
    }
    node.errors.push(issue.message)
  }
  return root
}

/** `- path.to.field: message` lines, as Mastra prints them. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `- ${issue.path.join('.') || 'root'}: ${issue.message}`).join('\n')
}

/** Whether a value is the `{ error: true, validationErrors }` result of a direct call. */
export function isValidationError(value: unknown): value is ValidationError {
  return typeof value === 'object' && value !== null && (value as ValidationError).error === true && 'validationErrors' in value
}
