import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import type { ToolAppOptions } from '../http/tool-app-options.ts'

type Vars = Readonly<Record<string, unknown>> | undefined

/** A variable of the Worker's env (its bindings), else of the process (Node, Deno). */
const variable = (env: Vars, name: string): string | undefined => {
  const value = env?.[name] ?? (globalThis as { process?: { env?: Vars } }).process?.env?.[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `name=value` pairs joined by commas, values percent-encoded (the OTLP exporter spec). */
const otlpHeadersOf = (text: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (text ?? '')
      .split(',')
      .map((pair) => pair.split('='))
      .filter(([name, ...value]) => name!.trim() !== '' && value.length > 0)
      .map(([name, ...value]) => [name!.trim(), decodeURIComponent(value.join('=').trim())]),
  )

/**
 * What the spans go to: OTLP over HTTP (JSON) to the option's `endpoint`, else
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`,
 * with the option's `headers` else `OTEL_EXPORTER_OTLP_HEADERS`. `undefined` when none is set: nothing is traced.
 * Spans go in batches, at most `OTEL_BSP_SCHEDULE_DELAY` ms apart (default 5 000; a Worker flushes each request's).
 */
export function tracerProviderOf(tracing: NonNullable<ToolAppOptions['tracing']>, env: Vars): TracerProvider | undefined {
  const base = tracing.endpoint ?? variable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  const url = tracing.endpoint || !variable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ? base && `${base.replace(/\/+$/, '')}/v1/traces` : variable(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')
  if (!url) return undefined
  const headers = tracing.headers ?? otlpHeadersOf(variable(env, 'OTEL_EXPORTER_OTLP_HEADERS'))
  const serviceName = tracing.serviceName ?? variable(env, 'OTEL_SERVICE_NAME') ?? 'toolroute'
  const delay = Number(variable(env, 'OTEL_BSP_SCHEDULE_DELAY'))
  return new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url, headers: { ...headers } }), ...(delay > 0 ? { scheduledDelayMillis: delay } : {}) })],
  })
}
