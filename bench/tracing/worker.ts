// bench/tracing.bench.mjs --workerd: `POST /tools/weather-tool` on a Worker whose app has `tracing` (its `APP` var
// `traced`) or not, the same script served twice, each in its own isolate. The traced one exports each request's
// spans with `waitUntil` (one OTLP/HTTP POST a request) to the endpoint in its `OTEL_EXPORTER_OTLP_ENDPOINT` var.
import { createToolApp } from '../../src/server.ts'
import { weatherTool } from '../../tools/weather-tool.ts'

let app: ReturnType<typeof createToolApp> | undefined

export default {
  fetch(request: Request, env: { APP?: string }, ctx: ExecutionContext): Response | Promise<Response> {
    app ??= createToolApp({ tools: [weatherTool], mcp: false, ...(env.APP === 'traced' ? { tracing: { serviceName: 'bench' } } : {}) })
    return app.fetch(request, env, ctx)
  },
}
