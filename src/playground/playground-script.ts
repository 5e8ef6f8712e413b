import type { Editor, playgroundForms } from './playground-forms.ts'
import type { playgroundViews } from './playground-views.ts'
import type { playgroundRuns } from './playground-runs.ts'
import type { playgroundSession } from './playground-session.ts'

/**
 * The playground's browser code. It ships as the text of this function (`playgroundScript.toString()`),
 * inlined in the page: one typed, linted source, no second build step, no CDN. So it must be
 * self-contained: it references nothing outside its own body (no imports, no module constants),
 * and never spells the closing tag of a script element. The project's types have no DOM (they are
 * the Workers' types), so the DOM is reached through `any`; the browser tests hold its behaviour.
 *
 * It uses the app's public routes only, each with the token's headers: `GET /tools`, `POST /tools/:id`
 * as SSE with `?view=`, `/runs/:id/approve|decline|resume`, `GET /runs/:id/events?after=`, `GET /runs/:id`.
 *
 * The forms drawn from JSON Schema are `playgroundForms`; the element helper and what reads the app's
 * answers as text (SSE frames, an event's line, a run's status, a tool's badges) `playgroundViews`; what
 * the tab keeps and the token `playgroundSession`: each passed in as text beside it (see playground-page.ts).
 * What is left is one closure on purpose: the page's state, timeline and wiring share it, and splitting
 * them would only pass that state through parameters.
 */
export function playgroundScript(makeForms: typeof playgroundForms, makeViews: typeof playgroundViews, makeRuns: typeof playgroundRuns, makeSession: typeof playgroundSession): void {
  type ToolEvent = { type: string; [key: string]: any }
  type Run = { runId: string; toolId: string; status: string; at: number; view: string; events: { seq: string; event: ToolEvent }[] }

  const doc: any = (globalThis as any).document
  const base: string = doc.body.dataset.base
  const $ = (id: string): any => doc.getElementById(id)
  const json = (value: unknown, space?: number) => JSON.stringify(value, null, space)

  const { h, badges, summary, statusOf, frames } = makeViews(doc, json)
  const { editorFor, sample } = makeForms(h, json)
  const { kept, keep, headers: auth } = makeSession(h, () => load()) // a new token reads the tools again
  // The server's runs, and a run's timeline; a server run opened here joins this page's runs.
  const server = makeRuns(h, json, base, auth, (summary) => {
    const known = runs.find((run) => run.runId === summary.runId)
    const run = known ?? { ...summary, at: Date.now(), view: view(), events: [] }
    if (!known) runs.unshift(run)
    reopen(run)
  })

  // ---- State ------------------------------------------------------------------------------

  let tools: any[] = []
  let tool: any
  let input: Editor | undefined
  let active: Run | undefined
  const runs: Run[] = kept('toolroute.playground.runs', [])
  const save = () => keep('toolroute.playground.runs', runs.slice(0, 25))
  const view = (): string => doc.querySelector('input[name="view"]:checked')?.value ?? 'display'

  // ---- Tools ------------------------------------------------------------------------------

  const badgeList = (descriptor: any) => h('span', { class: 'badges' }, badges(descriptor).map((badge) => h('span', { class: `badge ${badge}` }, badge)))

  const renderTools = () => {
    $('tools').replaceChildren(
      ...tools.map((descriptor) =>
        h(
          'li',
          {},
          h('button', { type: 'button', class: 'tool', 'aria-current': descriptor === tool ? 'true' : undefined, 'aria-describedby': `tool-about-${descriptor.id}`, 'data-tool': descriptor.id, onclick: () => select(descriptor) }, descriptor.id),
          h('span', { id: `tool-about-${descriptor.id}`, class: 'about' }, descriptor.mcp?.annotations?.title ? `${descriptor.mcp.annotations.title}: ` : '', descriptor.description, badgeList(descriptor)),
        ),
      ),
    )
  }

  const syncRaw = () => {
    if (input) $('raw-input').value = json(input.read() ?? {}, 2)
  }

  const select = (descriptor: any) => {
    tool = descriptor
    doc.title = `${descriptor.id} · toolroute playground`
    if ((globalThis as any).location.hash !== `#${encodeURIComponent(descriptor.id)}`) (globalThis as any).history.replaceState(null, '', `#${encodeURIComponent(descriptor.id)}`)
    $('tool-title').textContent = descriptor.id
    $('tool-description').textContent = descriptor.description
    $('tool-badges').replaceChildren(badgeList(descriptor))
    input = editorFor(descriptor.inputSchema, 'input', true, syncRaw)
    const example = descriptor.inputExamples?.[0]?.input
    if (example !== undefined) input.write(example)
    $('input-form').replaceChildren(h('legend', {}, 'Input'), ...(input.node.tagName === 'FIELDSET' ? [...input.node.children].slice(1) : [input.node]))
    syncRaw()
    $('request-context').value = descriptor.requestContextSchema ? json(sample(descriptor.requestContextSchema), 2) : '{}'
    $('call').hidden = false
    renderTools()
  }

  $('raw-input').addEventListener('input', () => {
    try {
      input?.write(JSON.parse($('raw-input').value))
    } catch {
      // Half-typed JSON: the form catches up once it parses.
    }
  })

  // ---- Runs and the timeline --------------------------------------------------------------

  const showError = (error?: { code: string; message: string; issues?: { path: unknown[]; message: string }[] }) => {
    const box = $('error')
    if (!error) return box.replaceChildren()
    box.replaceChildren(
      h('strong', { class: 'code' }, error.code),
      ' ',
      h('span', {}, error.message),
      error.issues?.length ? h('ul', {}, error.issues.map((issue) => h('li', {}, `${issue.path.join('.') || '(root)'}: ${issue.message}`))) : '',
    )
  }

  const appendEvent = (seq: string, event: ToolEvent) => {
    const preliminary = event.type === 'tool-output-available' && event.preliminary ? ' preliminary' : ''
    const kind = event.type.includes('error') || event.type === 'tool-output-denied' ? ' bad' : event.type === 'tool-output-available' ? ' good' : ''
    $('timeline').append(h('li', { class: `event${kind}${preliminary}`, 'data-type': event.type }, h('span', { class: 'seq' }, seq ? `#${seq}` : ''), h('span', { class: 'type' }, event.type + (preliminary ? ' (preliminary)' : '')), h('pre', {}, summary(event))))
  }

  const renderRuns = () => {
    $('runs').replaceChildren(
      ...runs.map((run) =>
        h(
          'li',
          {},
          h('button', { type: 'button', class: 'run', 'aria-current': run === active ? 'true' : undefined, 'data-run': run.runId, onclick: () => reopen(run) }, `${run.toolId} · ${run.status}`),
          h('small', {}, `${new Date(run.at).toLocaleTimeString()} · ${run.runId.slice(0, 8)}`),
        ),
      ),
    )
  }

  const showRun = (run: Run, note = '') => {
    active = run
    $('run-title').textContent = `Run ${run.runId}`
    $('run-status').textContent = `${run.toolId}: ${run.status}${note ? ` (${note})` : ''}`
    renderRuns()
  }

  // Which stream owns the timeline: a new run or a replay takes it over, and an older stream still
  // arriving (a view switched mid-run, Run pressed twice) stops writing to it.
  let feed = 0
  // The log is `aria-busy` while any request feeds it: screen readers (and tests) learn when it settles.
  let pending = 0
  const busy = async (work: () => Promise<unknown>) => {
    $('log').setAttribute('aria-busy', String(++pending > 0))
    try {
      await work()
    } finally {
      $('log').setAttribute('aria-busy', String(--pending > 0))
    }
  }

  /** Sends one request of a run (a call, approve, decline, resume) and shows its stream as it arrives. */
  const send = (url: string, body: string, run?: Run, headers: Record<string, string> = {}) => busy(() => request(url, body, run, headers))
  const request = async (url: string, body: string, run?: Run, headers: Record<string, string> = {}) => {
    showError()
    // An answer to a waiting run is sent once: its buttons wait for the server's word. A refusal
    // (a resume that does not match its schema) leaves the run waiting and the form as typed.
    const answers = [...$('waiting').querySelectorAll('button')]
    for (const button of answers) button.disabled = true
    const refused = (error: any) => {
      for (const button of answers) button.disabled = false
      showError(error)
    }
    let response: any
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...auth(), ...headers }, body })
    } catch (error) {
      return refused({ code: 'NETWORK_ERROR', message: String(error) })
    }
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const payload: any = await response.json().catch(() => undefined)
      return refused(payload?.error ?? { code: `HTTP_${response.status}`, message: 'The server answered without an event stream' })
    }
    // A new run takes the timeline over; an answer to a waiting run goes on with the run's own.
    let mine = feed
    if (!run) {
      run = { runId: response.headers.get('x-run-id') ?? '', toolId: tool.id, status: 'running', at: Date.now(), view: view(), events: [] }
      runs.unshift(run)
      $('waiting').replaceChildren()
      $('timeline').replaceChildren()
      mine = ++feed
    }
    showRun(run)
    for await (const frame of frames(response)) {
      run.events.push(frame)
      if (mine === feed) appendEvent(frame.seq, frame.event)
    }
    run.status = statusOf(run.events, run.status)
    save()
    if (active === run) {
      showRun(run)
      waitFor(run)
      server.trace(run.events)
    }
    server.load()
  }

  const runUrl = (run: Run, action: string) => `${base}/runs/${encodeURIComponent(run.runId)}${action}?view=${run.view}`

  /** A run that waits for a human: Approve / Decline, or a form from its `resumeSchema` and Resume. */
  const waitFor = (run: Run, record?: any) => {
    const box = $('waiting')
    box.replaceChildren()
    if (run.status === 'approval-required') {
      const approvalId = record?.approvalId ?? [...run.events].reverse().find(({ event }) => event.type === 'tool-approval-request')?.event.approvalId
      const reason = h('input', { id: 'decline-reason', type: 'text' })
      box.append(
        h('p', {}, 'This run waits for approval.'),
        h('button', { type: 'button', class: 'primary', onclick: () => send(runUrl(run, '/approve'), json(approvalId ? { approvalId } : {}), run) }, 'Approve'),
        h('div', { class: 'field inline' }, h('label', { for: 'decline-reason' }, 'reason'), reason),
        h('button', { type: 'button', onclick: () => send(runUrl(run, '/decline'), json(reason.value ? { reason: reason.value } : {}), run) }, 'Decline'),
      )
    } else if (run.status === 'suspended') {
      const suspended = [...run.events].reverse().find(({ event }) => event.type === 'data-tool-suspended')?.event.data
      const schema = record?.resumeSchema ?? suspended?.resumeSchema ?? {}
      const payload = record?.suspendPayload ?? suspended?.suspendPayload
      const resume = editorFor(schema, 'resumeData', true, () => {})
      box.append(
        h('p', {}, 'This run is suspended: it resumes with data that matches its resume schema.'),
        payload === undefined ? undefined : h('pre', { class: 'payload' }, json(payload, 2)),
        h('form', { class: 'resume', novalidate: true, onsubmit: (event: any) => (event.preventDefault(), send(runUrl(run, '/resume'), json({ resumeData: resume.read() }), run)) }, resume.node, h('button', { type: 'submit', class: 'primary' }, 'Resume')),
      )
    }
  }

  /** Reopens a past run: its events replayed from the events route, or this page's copy if it was not stored. */
  const reopen = (run: Run) => busy(() => replay(run))
  const replay = async (run: Run) => {
    showError()
    $('waiting').replaceChildren()
    $('timeline').replaceChildren()
    const mine = ++feed
    run.view = view()
    showRun(run, 'replaying')
    const response: any = await fetch(`${runUrl(run, '/events')}&after=0`, { headers: { accept: 'text/event-stream', ...auth() } }).catch(() => undefined)
    if (!response?.ok) {
      for (const { seq, event } of run.events) appendEvent(seq, event)
      return showRun(run, 'not stored by the server: the events this page received')
    }
    const events: Run['events'] = []
    for await (const frame of frames(response)) {
      events.push(frame)
      if (mine === feed) appendEvent(frame.seq, frame.event)
    }
    run.events = events
    const record: any = await fetch(`${base}/runs/${encodeURIComponent(run.runId)}`, { headers: auth() }).then((answer: any) => (answer.ok ? answer.json() : undefined), () => undefined)
    run.status = record?.status ?? statusOf(events, run.status)
    save()
    if (mine !== feed) return
    showRun(run, `replayed ${events.length} events`)
    waitFor(run, record)
    server.trace(events, record)
  }

  // ---- Wiring -----------------------------------------------------------------------------

  $('call').addEventListener('submit', (event: any) => {
    event.preventDefault()
    if (!tool) return
    const context = $('request-context').value.trim()
    // Sent as typed (on one line, as a header must be): the server says what is wrong with it.
    let compact = context.replace(/\s*[\r\n]+\s*/g, ' ')
    try {
      compact = context === '' ? '' : json(JSON.parse(context))
    } catch {
      // Not JSON: the server answers REQUEST_CONTEXT_VALIDATION_FAILED.
    }
    send(`${base}/tools/${encodeURIComponent(tool.id)}?view=${view()}`, $('raw-input').value, undefined, compact && compact !== '{}' ? { 'x-request-context': compact } : {})
  })
  for (const radio of doc.querySelectorAll('input[name="view"]')) radio.addEventListener('change', () => active && reopen(active))

  const load = async () => {
    showError()
    const response: any = await fetch(`${base}/tools`, { headers: auth() })
    const payload: any = await response.json()
    if (!response.ok) return showError(payload.error)
    tools = payload.tools
    renderTools()
    renderRuns()
    server.mount(tools.map((descriptor) => descriptor.id))
    let wanted = ''
    try {
      wanted = decodeURIComponent((globalThis as any).location.hash.slice(1))
    } catch {
      // A malformed hash selects the first tool.
    }
    const first = tools.find((descriptor) => descriptor.id === wanted) ?? tools[0]
    if (first) select(first)
  }
  load().catch((error) => showError({ code: 'NETWORK_ERROR', message: String(error) }))
}
