import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool } from '../tool/tool-types.ts'
import { errorStatus } from '../protocol/error-codes.ts'
import { toToolDescriptor } from '../manifest/to-tool-descriptor.ts'

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(errorStatus) },
        message: { type: 'string' },
        issues: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: { path: { type: 'array', items: { type: ['string', 'integer'] } }, message: { type: 'string' } },
          },
        },
      },
    },
  },
}

const ids = { runId: { type: 'string' }, toolCallId: { type: 'string' } }
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
const json = (schema: unknown) => ({ 'application/json': { schema } })
const sse = { 'text/event-stream': { schema: { type: 'string', description: 'AI SDK UI message stream (SSE)' } } }
const runIdParameter = { name: 'runId', in: 'path', required: true, schema: { type: 'string' } }
const headerParameters = [
  { name: 'x-request-context', in: 'header', required: false, schema: { type: 'string' }, description: 'The request context as a JSON object' },
  { name: 'x-tool-call-id', in: 'header', required: false, schema: { type: 'string' } },
]

function callResponses(tool: ToolDescriptor) {
  const output = tool.outputSchema ?? {}
  return {
    200: {
      description: 'Completed (JSON) or the event stream (Accept: text/event-stream)',
      content: {
        ...json({ type: 'object', required: ['runId', 'toolCallId', 'status'], properties: { ...ids, status: { const: 'completed' }, output, modelOutput: { type: 'object' } } }),
        ...sse,
      },
    },
    202: {
      description: 'Waiting for approval, suspended, or running in the background',
      content: json({
        type: 'object',
        properties: {
          ...ids,
          status: { enum: ['approval-required', 'suspended', 'running'] },
          approvalId: { type: 'string' },
          suspendPayload: tool.suspendSchema ?? {},
          resumeSchema: { type: 'object' },
        },
      }),
    },
    400: errorResponse('Invalid request context, JSON or input'),
    404: errorResponse('Unknown tool'),
    413: errorResponse('Body too large'),
    415: errorResponse('Body is not application/json'),
    500: errorResponse('The tool failed'),
  }
}

function runStep(summary: string, body?: unknown) {
  return {
    post: {
      summary,
      parameters: [runIdParameter],
      ...(body ? { requestBody: { required: false, content: json(body) } } : {}),
      responses: {
        200: { description: 'The step ended', content: { ...json({ type: 'object' }), ...sse } },
        202: { description: 'The run waits again or runs in the background', content: json({ type: 'object' }) },
        400: errorResponse('Invalid body'),
        403: errorResponse('From a page whose origin may not act on runs'),
        404: errorResponse('Unknown run'),
        409: errorResponse('The run is not in a state for this'),
        410: errorResponse('The run expired'),
        415: errorResponse('Body is not application/json'),
      },
    },
  }
}

/** An OpenAPI 3.1 document, as `GET /openapi.json` serves it. */
export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, unknown>
  components: Record<string, unknown>
}

export type OpenApiOptions = { basePath: string; server?: { name: string; version: string } | undefined }

/** OpenAPI 3.1: one path per tool with its own schemas, plus the run routes. */
export function createOpenApiDocument(tools: readonly AnyTool[], options: OpenApiOptions): OpenApiDocument {
  return openApiDocumentOf(tools.map(toToolDescriptor), options)
}

/** The document from the tools' descriptors, which hold every schema it names (a build's, without evaluating a tool). */
export function openApiDocumentOf(tools: readonly ToolDescriptor[], options: OpenApiOptions): OpenApiDocument {
  const base = options.basePath.replace(/\/$/, '')
  const paths: Record<string, unknown> = {}
  for (const tool of tools) {
    // The id encoded as its route is: `/tools/Lookup%20order`.
    paths[`${base}/tools/${encodeURIComponent(tool.id)}`] = {
      post: {
        operationId: tool.id,
        summary: tool.description,
        parameters: headerParameters,
        requestBody: { required: true, content: json(tool.inputSchema) },
        responses: callResponses(tool),
      },
    }
  }
  const query = (name: string, schema: object, description: string) => ({ name, in: 'query', required: false, schema, description })
  const status = { type: 'string', enum: ['running', 'approval-required', 'suspended', 'completed', 'failed', 'declined', 'cancelled', 'expired'] }
  const summary = { type: 'object', required: ['runId', 'toolId', 'toolCallId', 'status', 'createdAt', 'updatedAt'], properties: { ...ids, toolId: { type: 'string' }, status, createdAt: { type: 'string' }, updatedAt: { type: 'string' }, approvalId: { type: 'string' }, expiresAt: { type: 'string' } } }
  paths[`${base}/runs`] = {
    get: {
      operationId: 'listRuns',
      summary: "The caller's runs, newest first, by status and tool, a page at a time",
      parameters: [
        query('status', { type: 'string' }, 'One status or several, comma-separated: ' + status.enum.join(', ')),
        query('toolId', { type: 'string' }, 'Runs of this tool only'),
        query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'Runs a page'),
        query('cursor', { type: 'string' }, 'The cursor of the page before'),
      ],
      responses: {
        200: { description: 'A page of runs; cursor while more may follow', content: json({ type: 'object', required: ['runs'], properties: { runs: { type: 'array', items: summary }, cursor: { type: 'string' } } }) },
        400: errorResponse('A query value that cannot be read'),
        401: errorResponse('A caller without a principal'),
      },
    },
  }
  paths[`${base}/runs/{runId}`] = {
    get: {
      summary: 'The run, with the transcript of its latest events; transcriptCursor, passed as ?before=, reads the page before',
      parameters: [runIdParameter, { name: 'before', in: 'query', required: false, schema: { type: 'integer' } }, { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000 } }],
      responses: { 200: { description: 'The run', content: json({ type: 'object' }) }, 404: errorResponse('Unknown run') },
    },
  }
  paths[`${base}/runs/{runId}/events`] = {
    get: {
      summary: "The run's events, replayed from Last-Event-ID or ?after=, then live",
      parameters: [runIdParameter, { name: 'after', in: 'query', required: false, schema: { type: 'integer' } }],
      responses: { 200: { description: 'SSE', content: sse }, 404: errorResponse('Unknown run') },
    },
  }
  paths[`${base}/runs/{runId}/approve`] = runStep('Approve a run waiting for approval')
  paths[`${base}/runs/{runId}/decline`] = runStep('Decline a run waiting for approval', { type: 'object', properties: { reason: { type: 'string' } } })
  paths[`${base}/runs/{runId}/resume`] = runStep('Resume a suspended run', { type: 'object', required: ['resumeData'], properties: { resumeData: {} } })
  paths[`${base}/runs/{runId}/cancel`] = runStep('Cancel a waiting or background run')
  return {
    openapi: '3.1.0',
    // The server announced to MCP clients, else toolroute's defaults.
    info: { title: options.server?.name ?? 'toolroute', version: options.server?.version ?? '0.1.0' },
    paths,
    components: { schemas: { Error: errorSchema } },
  }
}
