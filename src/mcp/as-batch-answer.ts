/** The JSON answer to a batch of one as a batch (JSON-RPC 2.0 §6): SDK v2 answers `[request]` bare. */
export async function asBatchAnswer(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response
  const answer: unknown = await response.json()
  return new Response(JSON.stringify(Array.isArray(answer) ? answer : [answer]), { status: response.status, headers: response.headers })
}
