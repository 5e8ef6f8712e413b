/**
 * The answer to a JSON-RPC batch of one, as a batch: SDK v2's transport answers `[request]` with
 * the bare response, where JSON-RPC 2.0 (section 6) answers a batch with an array. Only a JSON
 * answer is touched; an empty one (a batch of notifications: 202) and a stream stay as they are.
 */
export async function asBatchAnswer(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response
  const answer: unknown = await response.json()
  return new Response(JSON.stringify(Array.isArray(answer) ? answer : [answer]), { status: response.status, headers: response.headers })
}
