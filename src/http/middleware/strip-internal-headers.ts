/** The prefix of every header toolroute sets between its own parts (the Worker and its Durable Objects, HTTP and MCP). */
export const internalHeaderPrefix = 'x-toolroute-'

/**
 * `request` without any `x-toolroute-*` header (SPEC §12): those are how toolroute's own parts
 * tell each other who the caller is and which session or call a request belongs to, so one sent
 * by a client could reach another's session object under its own principal. Applied where a
 * request enters the app (`createToolApp`'s `fetch`, and so the Worker entry and Deno's
 * `serveTools`); toolroute sets its own headers after this, on its internal hops. A request
 * without any is returned as it is, unchanged and uncopied.
 */
export function stripInternalHeaders(request: Request): Request {
  let found: string[] | undefined
  for (const name of request.headers.keys()) if (name.startsWith(internalHeaderPrefix)) (found ??= []).push(name)
  if (!found) return request
  const headers = new Headers(request.headers)
  for (const name of found) headers.delete(name)
  return new Request(request, { headers })
}
