import { createServer } from 'node:http'

// OTLP/HTTP JSON (opentelemetry-proto's JSON mapping: hex ids), as much of it as the assertions read.
// otlp-transformer 0.301 exports its serializers but not these request types, so they are spelled here.
type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
export interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  attributes: { key: string; value: AnyValue }[]
  status?: { code?: number }
  links?: { traceId: string; spanId: string; attributes?: { key: string; value: AnyValue }[] }[]
}
interface ExportTraceServiceRequest {
  resourceSpans: { resource?: { attributes: { key: string; value: AnyValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[]
}

/** A real OTLP/HTTP endpoint: every export request, its headers, and its spans decoded from JSON. */
export async function startCollector() {
  const spans: OtlpSpan[] = []
  const services: string[] = []
  const keys: (string | undefined)[] = []
  const paths: string[] = []
  let waiters: (() => void)[] = []
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      paths.push(`${incoming.url} ${incoming.headers['content-type']}`)
      keys.push(incoming.headers['x-collector-key'] as string | undefined)
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportTraceServiceRequest
      for (const resource of request.resourceSpans) {
        services.push(...(resource.resource?.attributes ?? []).filter((a) => a.key === 'service.name').map((a) => a.value.stringValue!))
        for (const scope of resource.scopeSpans) spans.push(...scope.spans)
      }
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      waiters.forEach((wake) => wake())
      waiters = []
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }

  /** The first span `where` holds of, once it has arrived (a run's later step comes after its call's answer). */
  const spanWhere = async (where: (span: OtlpSpan) => boolean, timeoutMs = 10_000): Promise<OtlpSpan> => {
    const deadline = Date.now() + timeoutMs
    while (!spans.some(where)) {
      if (Date.now() > deadline) throw new Error(`No such span arrived in ${timeoutMs} ms (${spans.length} spans arrived)`)
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, 100)
        waiters.push(() => (clearTimeout(timer), wake()))
      })
    }
    return spans.find(where)!
  }
  /** The spans of trace `traceId` once its `execute_tool` span has arrived. */
  const traceOf = async (traceId: string): Promise<OtlpSpan[]> => {
    await spanWhere((span) => span.traceId === traceId && span.name.startsWith('execute_tool '))
    return spans.filter((span) => span.traceId === traceId)
  }
  return { url: `http://127.0.0.1:${port}`, spans, services, keys, paths, traceOf, spanWhere, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}

export const attributesOf = (span: OtlpSpan) => Object.fromEntries(span.attributes.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]))

