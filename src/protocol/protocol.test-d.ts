import { describe, expectTypeOf, it } from 'vitest'
import type * as client from '../client/index.ts'
import type * as root from '../index.ts'
import type * as server from '../server.ts'
import type { runView } from '../http/run-response.ts'
import type { toToolDescriptor } from '../manifest/to-tool-descriptor.ts'
import type { CallResult, CancelResult, RunStatus, RunView } from './call-result.ts'
import type { ErrorBody, ErrorCode, ValidationIssue } from './error-codes.ts'
import type { ToolModelOutput } from './model-output.ts'
import type { ToolDescriptor } from './tool-descriptor.ts'
import type { SequencedEvent, ToolEvent } from './tool-event.ts'

describe('one wire contract: the public entry points and the server builders name the protocol types', () => {
  it('toolroute/client re-exports the protocol types, not copies of them', () => {
    expectTypeOf<client.CallResult>().toEqualTypeOf<CallResult>()
    expectTypeOf<client.CancelResult>().toEqualTypeOf<CancelResult>()
    expectTypeOf<client.RunView>().toEqualTypeOf<RunView>()
    expectTypeOf<client.RunStatus>().toEqualTypeOf<RunStatus>()
    expectTypeOf<client.ToolDescriptor>().toEqualTypeOf<ToolDescriptor>()
    expectTypeOf<client.ToolEvent>().toEqualTypeOf<ToolEvent>()
    expectTypeOf<client.SequencedEvent>().toEqualTypeOf<SequencedEvent>()
    expectTypeOf<client.ErrorCode>().toEqualTypeOf<ErrorCode>()
    expectTypeOf<client.ValidationIssue>().toEqualTypeOf<ValidationIssue>()
    expectTypeOf<client.ToolModelOutput>().toEqualTypeOf<ToolModelOutput>()
  })

  it('toolroute and toolroute/server keep their names, now from the protocol', () => {
    expectTypeOf<root.ErrorBody>().toEqualTypeOf<ErrorBody>()
    expectTypeOf<root.ToolEvent>().toEqualTypeOf<ToolEvent>()
    expectTypeOf<server.ToolDescriptor>().toEqualTypeOf<ToolDescriptor>()
    expectTypeOf<server.RunView>().toEqualTypeOf<RunView>()
  })

  it('the server builds what the client reads', () => {
    expectTypeOf<ReturnType<typeof toToolDescriptor>>().toEqualTypeOf<ToolDescriptor>()
    expectTypeOf<Awaited<ReturnType<typeof runView>>>().toEqualTypeOf<RunView>()
    expectTypeOf<Awaited<ReturnType<client.ToolClient['getRun']>>>().toEqualTypeOf<RunView>()
    expectTypeOf<Awaited<ReturnType<client.ToolClient['list']>>>().toEqualTypeOf<ToolDescriptor[]>()
  })
})
