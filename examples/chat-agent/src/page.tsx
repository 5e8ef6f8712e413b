import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type ChatTransport, type UIMessage, type UIMessageChunk } from 'ai'
import { useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { createToolClient } from 'toolroute/client'
import type { ChatMetadata } from './worker.ts'

type ChatMessage = UIMessage<ChatMetadata>
type ToolPart = Extract<ChatMessage['parts'][number], { type: `tool-${string}` }>
type Progress = Record<string, unknown[]>

const storageKey = 'toolroute-chat-agent'
const saved = (): ChatMessage[] => JSON.parse(localStorage.getItem(storageKey) ?? '[]')

/** `/chat`'s stream as useChat reads it, each preliminary tool output noted on the way (the progress log). */
function chatTransport(onProgress: (toolCallId: string, output: unknown) => void): ChatTransport<ChatMessage> {
  const transport = new DefaultChatTransport<ChatMessage>({ api: '/chat' })
  const tap = (stream: ReadableStream<UIMessageChunk>) =>
    stream.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          if (chunk.type === 'tool-output-available' && chunk.preliminary) onProgress(chunk.toolCallId, chunk.output)
          controller.enqueue(chunk)
        },
      }),
    )
  return {
    sendMessages: async (options) => tap(await transport.sendMessages(options)),
    reconnectToStream: async (options) => {
      const stream = await transport.reconnectToStream(options)
      return stream && tap(stream)
    },
  }
}

function Chat() {
  const [progress, setProgress] = useState<Progress>({})
  const [transport] = useState(() =>
    chatTransport((toolCallId, output) => setProgress((all) => ({ ...all, [toolCallId]: [...(all[toolCallId] ?? []), output] }))),
  )
  // #region use-chat
  const { messages, sendMessage, addToolApprovalResponse, status } = useChat<ChatMessage>({
    messages: saved(),
    transport,
    // After Approve / Decline, the chat sends itself: the agent runs (or skips) the tool and answers.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  })
  // #endregion
  const [text, setText] = useState('')
  useEffect(() => {
    if (status === 'ready') localStorage.setItem(storageKey, JSON.stringify(messages))
  }, [messages, status])

  return (
    <>
      {messages.map((message) => (
        <div key={message.id} className="message" data-role={message.role}>
          <b>{message.role === 'user' ? 'You' : 'Agent'}:</b>
          {message.parts.map((part, index) => {
            if (part.type === 'text') return <span key={index} className="text"> {part.text}</span>
            if (part.type.startsWith('tool-')) {
              const tool = part as ToolPart
              return (
                <ToolCall
                  key={index}
                  part={tool}
                  progress={progress[tool.toolCallId]}
                  runId={message.metadata?.runs?.[tool.toolCallId]}
                  answer={(approved) => addToolApprovalResponse({ id: tool.approval!.id, approved, ...(approved ? {} : { reason: 'Declined in the chat' }) })}
                />
              )
            }
            return null
          })}
        </div>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (!text.trim()) return
          void sendMessage({ text })
          setText('')
        }}
      >
        <input aria-label="Message" value={text} onChange={(event) => setText(event.target.value)} placeholder="Index the docs, or delete notes.txt" />
        <button type="submit" disabled={status !== 'ready'}>
          Send
        </button>
      </form>
    </>
  )
}

function ToolCall({ part, progress, runId, answer }: { part: ToolPart; progress?: unknown[]; runId?: string; answer: (approved: boolean) => void }) {
  const name = part.type.slice('tool-'.length)
  return (
    <div className="tool" data-tool={name} data-state={part.state}>
      <div>
        <code>{name}</code> <code>{JSON.stringify(part.input)}</code> <i className="state">{part.state === 'output-available' && part.preliminary ? 'working' : part.state}</i>
      </div>
      {progress && (
        <ol className="progress">
          {progress.map((value, index) => (
            <li key={index}>{JSON.stringify(value)}</li>
          ))}
        </ol>
      )}
      {/* #region approve */}
      {part.state === 'approval-requested' && (
        <div>
          <button onClick={() => answer(true)}>Approve</button> <button onClick={() => answer(false)}>Decline</button>
        </div>
      )}
      {part.state === 'output-available' && !part.preliminary && <div className="output">{JSON.stringify(part.output)}</div>}
      {part.state === 'output-error' && <div className="error">{part.errorText}</div>}
      {part.state === 'output-denied' && <div className="denied">Declined</div>}
      {/* #endregion */}
      {runId && !progress && <RunReplay runId={runId} />}
    </div>
  )
}

/** After a reload: the run's events again, from toolroute's log (`GET /runs/:runId/events`). */
function RunReplay({ runId }: { runId: string }) {
  const [events, setEvents] = useState<string[]>([])
  useEffect(() => {
    const controller = new AbortController()
    void (async () => {
      for await (const { event } of createToolClient({ baseUrl: location.origin }).follow(runId, { signal: controller.signal })) {
        if (event.type === 'data-tool-output') setEvents((all) => [...all, `wrote ${JSON.stringify(event.data.output)}`])
        if (event.type === 'tool-output-available' && !event.preliminary) setEvents((all) => [...all, `output ${JSON.stringify(event.output)}`])
      }
    })()
    return () => controller.abort()
  }, [runId])
  return (
    <ul className="replay" data-run={runId}>
      {events.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  )
}

createRoot(document.getElementById('root')!).render(<Chat />)
