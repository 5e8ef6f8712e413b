import type { CallResult, CancelResult, RunList, RunListFilter, RunView } from '../protocol/call-result.ts'
import type { SequencedEvent, ToolEventView } from '../protocol/tool-event.ts'
import type { ToolDescriptor } from '../protocol/tool-descriptor.ts'
import type { AnyTool, InferToolInput, InferToolOutput, Tool } from '../tool/tool-types.ts'

/** What a client is typed from: the server's tools, as an array or a module's exports. */
export type ToolSetLike = readonly unknown[] | Readonly<Record<string, unknown>>

type Members<T> = T extends readonly (infer U)[] ? U : T[keyof T]
/** The tools of a tool set (non-tool exports of a module are ignored). */
type ToolsOf<T> = Extract<Members<T>, AnyTool>

/** The tool ids of a tool set; `string` for an untyped client. */
export type ToolIdOf<T> = ToolsOf<T>['id']

/** The tool with an id; any tool when the set does not say (an untyped client). */
export type ToolById<T, Id> = [Extract<ToolsOf<T>, { id: Id }>] extends [never] ? AnyTool : Extract<ToolsOf<T>, { id: Id }>

/** What a call of tool `Id` sends: the input schema's input type. */
export type ToolInputOf<T, Id> = InferToolInput<ToolById<T, Id>>
/** What a completed call of tool `Id` returns: the output schema's output type. */
export type ToolOutputOf<T, Id> = InferToolOutput<ToolById<T, Id>>
/** The payload tool `Id` suspends with. */
export type ToolSuspendOf<T, Id> = ToolById<T, Id> extends Tool<any, any, any, infer S, any, any> ? S : unknown
/** What resuming tool `Id` takes as `resumeData`. */
export type ToolResumeOf<T, Id> = ToolById<T, Id> extends Tool<any, any, any, any, infer R, any> ? R : unknown
/** The request context tool `Id` declares. */
export type ToolRequestContextOf<T, Id> = ToolById<T, Id> extends Tool<any, any, any, any, any, infer C> ? C : Record<string, unknown>

/** Anything with a `fetch`: a Workers service binding (`env.TOOLS`), or a stand-in for one. */
export interface Fetcher {
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>
}

/** Headers sent with every request, or a function that makes them per request (a token that rotates). */
export type HeadersSource = HeadersInit | (() => HeadersInit | Promise<HeadersInit>)

/** Options of `createToolClient`: where the tools are, and how to reach them. */
export interface ToolClientOptions {
  /**
   * Where toolroute is served, including its base path (`https://tools.example.com`). With a
   * `fetcher`, the URL the binding sees (default `http://toolroute`).
   */
  baseUrl?: string | URL
  /** A Workers service binding (`env.TOOLS`), called in place of the network. */
  fetcher?: Fetcher
  /** A `fetch` to use instead of the global one (a wrapper that signs or logs requests). */
  fetch?: (input: Request, init?: RequestInit) => Promise<Response>
  /** Headers for every request, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: HeadersSource
  /** A request context sent with every call, under the call's own. */
  requestContext?: Record<string, unknown>
  /**
   * Send a call's `toolCallId` as its `Idempotency-Key` (default true), so a retried call never
   * executes twice (SPEC §9); except for an input streamed as it arrives, which the server would
   * otherwise read whole before starting. `false`: only an explicit `idempotencyKey` is sent.
   */
  idempotency?: boolean
  /** The W3C `traceparent` every request carries (SPEC §17; a function is asked per request, docs/observability.md); a `traceparent` header wins. */
  traceparent?: string | (() => string | undefined)
}

/** Per-request options shared by every method. */
export interface RequestOptions {
  signal?: AbortSignal
  /** Headers for this request only, over the client's. */
  headers?: HeadersInit
}

/** Options of one call. */
export interface CallOptions<TRequestContext = Record<string, unknown>> extends RequestOptions {
  /** The request context (`x-request-context`), validated by the tool's `requestContextSchema`. */
  requestContext?: Partial<TRequestContext> & Record<string, unknown>
  /** The caller's id for the call (`x-tool-call-id`), e.g. the model's tool call id; also its `Idempotency-Key` by default. */
  toolCallId?: string
  /** The call's `Idempotency-Key`, when it should not be the `toolCallId`. */
  idempotencyKey?: string
}

/** Options of a streamed call. */
export interface StreamOptions<TRequestContext = Record<string, unknown>> extends CallOptions<TRequestContext> {
  /** Which view of the events (SPEC §3): `display` (default), `raw` or `transcript`. */
  view?: ToolEventView
}

/** Options of `follow`: where to start, and how hard to try when the connection drops. */
export interface FollowOptions extends RequestOptions {
  /** Replay events after this id (default 0: from the start). */
  after?: number
  view?: ToolEventView
  /** Reconnections in a row without a new event before giving up (default 5). */
  maxRetries?: number
  /** First delay before reconnecting, doubled each time up to `maxRetryDelayMs` (default 250 ms). */
  retryDelayMs?: number
  maxRetryDelayMs?: number
}

/** A tool's input: the value, or its JSON text arriving in pieces (a model's argument deltas). */
export type ToolInputSource<TInput> = TInput | AsyncIterable<string>

/** The client `createToolClient` returns, typed from the server's tools when given them. */
export interface ToolClient<T extends ToolSetLike = readonly AnyTool[]> {
  /** `GET /tools`: every tool's descriptor, schemas as JSON Schema. */
  list(options?: RequestOptions): Promise<ToolDescriptor[]>
  /** `GET /tools/:toolId`: one tool's descriptor. */
  describe(toolId: ToolIdOf<T>, options?: RequestOptions): Promise<ToolDescriptor>
  /**
   * `POST /tools/:toolId` for JSON: where the call ended. A failure the server answers with an
   * error (validation, a tool that threw) rejects with a `ToolClientError` carrying its code.
   */
  call<Id extends ToolIdOf<T>>(
    toolId: Id,
    input: ToolInputSource<ToolInputOf<T, Id>>,
    options?: CallOptions<ToolRequestContextOf<T, Id>>,
  ): Promise<CallResult<ToolOutputOf<T, Id>, ToolSuspendOf<T, Id>>>
  /**
   * `POST /tools/:toolId` for SSE: the call's events as they happen, each with its id in the
   * run's log. An `AsyncIterable<string>` input is sent as it arrives (a streamed request body).
   */
  stream<Id extends ToolIdOf<T>>(
    toolId: Id,
    input: ToolInputSource<ToolInputOf<T, Id>>,
    options?: StreamOptions<ToolRequestContextOf<T, Id>>,
  ): AsyncIterable<SequencedEvent>
  /** `POST /runs/:runId/approve`: the tool executes; answers where it ended. */
  approve<Id extends ToolIdOf<T> = ToolIdOf<T>>(
    runId: string,
    options?: RequestOptions & { approvalId?: string },
  ): Promise<CallResult<ToolOutputOf<T, Id>, ToolSuspendOf<T, Id>>>
  /** `POST /runs/:runId/decline`: the tool never executes. */
  decline(runId: string, options?: RequestOptions & { reason?: string }): Promise<CallResult<never, never>>
  /** `POST /runs/:runId/resume`: `execute` runs again with `resumeData`. */
  resume<Id extends ToolIdOf<T> = ToolIdOf<T>>(
    runId: string,
    resumeData: ToolResumeOf<T, Id>,
    options?: RequestOptions,
  ): Promise<CallResult<ToolOutputOf<T, Id>, ToolSuspendOf<T, Id>>>
  /** `POST /runs/:runId/cancel`. */
  cancel(runId: string, options?: RequestOptions): Promise<CancelResult>
  /** `GET /runs/:runId`. */
  getRun(runId: string, options?: RequestOptions): Promise<RunView>
  /**
   * `GET /runs`: a page of the caller's runs, newest first, by status and tool (SPEC §16); pass its
   * `cursor` back for the next page. A caller without a principal is refused (`UNAUTHORIZED`).
   *
   * @example
   * const { runs } = await client.listRuns({ status: ['approval-required', 'suspended'] })
   */
  listRuns(filter?: RunListFilter & RequestOptions): Promise<RunList>
  /**
   * `GET /runs/:runId/events`, reconnecting by itself with `Last-Event-ID` when the connection
   * drops, so each event arrives exactly once, until the run stops running.
   */
  follow(runId: string, options?: FollowOptions): AsyncIterable<SequencedEvent>
}
