/** Whether the request declares a JSON body (`application/json`, `application/*+json`). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false
  if (contentType === 'application/json') return true // what nearly every caller sends
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}
