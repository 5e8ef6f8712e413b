/**
 * The answer to a JSON-RPC batch of one as a batch (JSON-RPC 2.0 §6): SDK v2 answers `[request]`
 * bare. Only a JSON answer is touched; a 202 and a stream stay as they are.
 */
export async function asBatchAnswer(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response
  const answer: unknown = await response.json()
  return new Response(JSON.stringify(Array.isArray(answer) ? answer : [answer]), { status: response.status, headers: response.headers })
}
