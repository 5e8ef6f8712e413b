/**
 * The playground's runs on the server (SPEC §10, §16) and one run's timeline. Like `playgroundScript`, it
 * ships as the text of this function, so it is self-contained; the script calls it with the element
 * helper, its JSON helper, the routes' base, the request headers every fetch carries (`auth`), and
 * `open`, which shows a run's events in the log (and, for a suspended run, its resume form).
 *
 * The list is `GET /runs` (the caller's runs, whoever started them: this page, an agent over MCP),
 * filtered by status and tool, a page at a time; a waiting run has **Approve** and **Decline** there,
 * a suspended one **Resume** (its form opens beside the log). The timeline reads a run's events as a
 * trace: its start, each wait and answer, each step and background attempt, each `observe.span`
 * (nested by parent), and its end; steps, waits and spans with their durations.
 */
export function playgroundRuns(h: (tag: string, props?: Record<string, any>, ...children: unknown[]) => any, json: (value: unknown) => string, base: string, auth: () => Record<string, string>, open: (run: { runId: string; toolId: string; status: string }) => void) {
  type Phase = { kind: string; label: string; depth: number; durationMs?: number; status?: string; spanId?: string }
  const doc: any = (globalThis as any).document
  const $ = (id: string): any => doc.getElementById(id)
  let cursor: string | undefined

  const status = h('select', { id: 'runs-status' }, [['', 'any'], ['approval-required,suspended', 'waiting'], ...['running', 'approval-required', 'suspended', 'completed', 'failed', 'declined', 'cancelled', 'expired'].map((name) => [name, name])].map(([value, label]) => h('option', { value }, label)))
  const tool = h('select', { id: 'runs-tool' }, h('option', { value: '' }, 'any'))
  const list = h('ul', { id: 'server-runs', 'aria-label': 'Server runs', 'aria-busy': 'false' })
  const note = h('p', { class: 'hint', role: 'note' })
  const more = h('button', { type: 'button', class: 'small', hidden: true, onclick: () => load(true) }, 'Next page')

  /** Reads a page of `GET /runs` with the filters; `next` appends the page after the last. */
  const load = async (next = false) => {
    const query = new URLSearchParams()
    if (status.value) query.set('status', status.value)
    if (tool.value) query.set('toolId', tool.value)
    if (next && cursor) query.set('cursor', cursor)
    list.setAttribute('aria-busy', 'true')
    try {
      const response: any = await fetch(`${base}/runs?${query}`, { headers: auth() }).catch((error: unknown) => ({ ok: false, status: 0, json: async () => ({ error: { message: String(error) } }) }))
      const page: any = await response.json().catch(() => ({}))
      note.textContent = response.ok ? '' : response.status === 401 ? 'Runs are listed for a signed-in caller (a principal).' : (page.error?.message ?? `HTTP ${response.status}`)
      cursor = page.cursor
      more.hidden = !cursor
      if (!next) list.replaceChildren()
      list.append(...(page.runs ?? []).map(item))
    } finally {
      list.setAttribute('aria-busy', 'false')
    }
  }

  for (const select of [status, tool]) select.addEventListener('change', () => load())
  /** Approves or declines from the list, then shows the run (its events) and reads the list again. */
  const act = async (run: any, action: string, body: unknown) => {
    await fetch(`${base}/runs/${encodeURIComponent(run.runId)}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth() }, body: json(body) })
    await load()
    open(run)
  }

  const item = (run: any) =>
    h(
      'li',
      { 'data-run': run.runId, 'data-status': run.status },
      // Named without "run", so the page keeps one button called Run.
      h('button', { type: 'button', class: 'run', 'aria-label': `${run.toolId}, ${run.status === 'running' ? 'in progress' : run.status}, ${run.runId.slice(0, 8)}`, onclick: () => open(run) }, `${run.toolId} · ${run.status}`),
      h('small', {}, `${new Date(run.createdAt).toLocaleString()} · ${run.runId.slice(0, 8)}`),
      run.status === 'approval-required' && [
        h('button', { type: 'button', class: 'small primary', onclick: () => act(run, 'approve', run.approvalId ? { approvalId: run.approvalId } : {}) }, 'Approve'),
        h('button', { type: 'button', class: 'small', onclick: () => act(run, 'decline', {}) }, 'Decline'),
      ],
      run.status === 'suspended' && h('button', { type: 'button', class: 'small primary', onclick: () => open(run) }, 'Resume'),
    )

  /** Each step's and wait's duration, in order, from the record's `history` (a status lasts until the next, the last until now; the first step from the run's creation to its first stored status, unless that is `running`). */
  const timed = (record?: any) => {
    const history: { status: string; at: string }[] = record?.history ?? []
    const times = { steps: history[0] && history[0].status !== 'running' ? [Date.parse(history[0].at) - Date.parse(record.createdAt)] : [], waits: [] as number[] }
    history.forEach(({ status, at }, index) => (status === 'running' ? times.steps : status === 'approval-required' || status === 'suspended' ? times.waits : []).push(Date.parse(history[index + 1]?.at ?? new Date().toISOString()) - Date.parse(at)))
    return times
  }

  /** A run's events as a trace's phases, in order; spans nest under their parent, and they, steps and waits carry their durations. */
  const phasesOf = (events: { event: any }[], times: { steps: number[]; waits: number[] }): Phase[] => {
    const phases: Phase[] = []
    const spans = new Map<string, Phase>()
    let [steps, waits] = [0, 0]
    for (const { event } of events) {
      const add = (kind: string, label: string, extra: Partial<Phase> = {}) => phases.push({ kind, label, depth: 0, ...extra })
      if (event.type === 'start') add(steps === 0 ? 'start' : 'step', steps === 0 ? 'start' : `step ${steps + 1}`, { durationMs: times.steps[steps++] })
      else if (event.type === 'tool-approval-request') add('wait', 'waits for approval', { durationMs: times.waits[waits++] })
      else if (event.type === 'tool-approval-response') add('answer', event.approved ? 'approved' : `declined${event.reason ? `: ${event.reason}` : ''}`)
      else if (event.type === 'data-tool-suspended') add('wait', 'suspended: waits to be resumed', { durationMs: times.waits[waits++] })
      else if (event.type === 'data-tool-resumed') add('answer', 'resumed')
      else if (event.type === 'data-tool-attempt') add('attempt', `attempt ${event.data.attempt} of ${event.data.of}`)
      else if (event.type === 'data-tool-span' && event.data.phase === 'start') {
        const span: Phase = { kind: 'span', label: event.data.name, depth: (spans.get(event.data.parentSpanId)?.depth ?? 0) + 1, spanId: event.data.spanId }
        spans.set(event.data.spanId, span)
        phases.push(span)
      } else if (event.type === 'data-tool-span') Object.assign(spans.get(event.data.spanId) ?? {}, { durationMs: event.data.durationMs, status: event.data.status })
      else if (event.type === 'tool-output-available' && !event.preliminary) add('end', 'completed')
      else if (event.type === 'tool-output-error') add('end', 'failed', { status: 'error' })
      else if (event.type === 'tool-output-denied') add('end', 'declined')
    }
    return phases
  }

  /** Draws the timeline of a run beside its events; `record` (the stored run, read when not given) times it. */
  const trace = async (events: { event: any }[], record?: any) => {
    const runId = events.find(({ event }) => event.type === 'start')?.event.messageMetadata?.runId
    record ??= runId && (await fetch(`${base}/runs/${encodeURIComponent(runId)}`, { headers: auth() }).then((answer: any) => (answer.ok ? answer.json() : undefined), () => undefined))
    const phases = phasesOf(events, timed(record))
    const longest = Math.max(1, ...phases.map((phase) => phase.durationMs ?? 0))
    const total = record ? Date.parse(record.updatedAt) - Date.parse(record.createdAt) : undefined
    $('trace-total').textContent = total === undefined ? '' : `${record.status} · ${total} ms from start to its last change`
    $('trace').replaceChildren(
      ...phases.map((phase) =>
        h(
          'li',
          { class: `phase ${phase.kind}${phase.status === 'error' ? ' bad' : ''}`, 'data-kind': phase.kind, style: `margin-left:${phase.depth * 1.2}rem` },
          h('span', { class: 'label' }, phase.label),
          phase.durationMs === undefined ? undefined : [h('span', { class: 'bar', style: `width:${Math.max(2, (phase.durationMs / longest) * 100)}%` }), h('span', { class: 'duration' }, phase.durationMs >= 10_000 ? `${(phase.durationMs / 1000).toFixed(1)} s` : `${phase.durationMs < 10 ? phase.durationMs.toFixed(2) : Math.round(phase.durationMs)} ms`)],
        ),
      ),
    )
  }

  /** Fills the panel (again when the token changes); `toolIds` are the tool filter's choices. */
  const mount = (toolIds: string[]) => {
    tool.replaceChildren(h('option', { value: '' }, 'any'), ...toolIds.map((id) => h('option', { value: id }, id)))
    $('server-runs-panel').replaceChildren(
      h('div', { class: 'field' }, h('label', { for: 'runs-status' }, 'status'), status),
      h('div', { class: 'field' }, h('label', { for: 'runs-tool' }, 'tool'), tool),
      h('button', { type: 'button', class: 'small', onclick: () => load() }, 'Reload list'),
      note,
      list,
      more,
    )
    return load()
  }

  return { mount, load, trace }
}
