/**
 * The playground's forms: a JSON Schema drawn as labelled controls, read back as the value a caller
 * would type. Like `playgroundScript`, it ships as the text of this function, so it is self-contained
 * (no imports at run time, no module constants); the page calls it with the script's element helper.
 */

/** One control (or group of controls) for a value of a schema. */
export type Editor = { node: any; read(): unknown; write(value: unknown): void }

type ElementOf = (tag: string, props?: Record<string, any>, ...children: unknown[]) => any

export function playgroundForms(h: ElementOf, json: (value: unknown, space?: number) => string) {
  let uid = 0

  // ---- Forms from JSON Schema -------------------------------------------------------------
  // Every control's <label> is its field's name. Optional fields left empty are left out, so
  // what the form sends is what a caller would type; anything the form cannot draw gets a JSON box.

  /** The schema to draw: the first non-null branch of a union, the first non-null type of a list. */
  const resolve = (schema: any): any => {
    if (!schema || typeof schema !== 'object') return {}
    const union = schema.anyOf ?? schema.oneOf
    if (Array.isArray(union)) {
      const branch = union.find((item: any) => item && item.type !== 'null')
      return branch ? resolve({ ...schema, anyOf: undefined, oneOf: undefined, ...branch }) : schema
    }
    if (Array.isArray(schema.type)) return { ...schema, type: schema.type.find((type: string) => type !== 'null') }
    return schema
  }

  const controlId = () => `field-${++uid}`
  const hint = (schema: any, id: string) => (schema.description ? h('small', { id: `${id}-hint`, class: 'hint' }, schema.description) : undefined)

  const editorFor = (raw: any, name: string, required: boolean, onChange: () => void): Editor => {
    const schema = resolve(raw)
    const id = controlId()
    const described = schema.description ? `${id}-hint` : undefined
    const label = () => h('label', { for: id }, name)
    if (Array.isArray(schema.enum)) {
      const values: unknown[] = schema.enum
      const select = h('select', { id, 'aria-describedby': described, onchange: onChange }, required ? [] : h('option', { value: '' }, '(none)'), values.map((value, index) => h('option', { value: String(index) }, typeof value === 'string' ? value : json(value))))
      return {
        node: h('div', { class: 'field' }, label(), select, hint(schema, id)),
        read: () => (select.value === '' ? undefined : values[Number(select.value)]),
        write: (value) => {
          const index = values.findIndex((item) => json(item) === json(value))
          select.value = index < 0 ? (required ? '0' : '') : String(index)
        },
      }
    }
    if (schema.type === 'object' && schema.properties) {
      const needed: string[] = schema.required ?? []
      const children = Object.entries(schema.properties).map(([key, child]) => [key, editorFor(child, key, needed.includes(key), onChange)] as const)
      return {
        node: h('fieldset', { class: 'object' }, h('legend', {}, name), children.map(([, editor]) => editor.node)),
        read: () => {
          const value: Record<string, unknown> = {}
          for (const [key, editor] of children) {
            const item = editor.read()
            if (item !== undefined) value[key] = item
          }
          return required || Object.keys(value).length > 0 ? value : undefined
        },
        write: (value: any) => {
          for (const [key, editor] of children) editor.write(value && typeof value === 'object' ? value[key] : undefined)
        },
      }
    }
    if (schema.type === 'array') {
      // Items are labelled by position (`stops 1`, `stops 2`); removing one redraws the rest.
      const list = h('ol', { class: 'items' })
      const items: Editor[] = []
      const add = (value?: unknown) => {
        const position = items.length
        const editor = editorFor(schema.items ?? {}, `${name} ${position + 1}`, true, onChange)
        const remove = () => {
          const values = items.map((item) => item.read())
          values.splice(position, 1)
          write(values)
          onChange()
        }
        items.push(editor)
        list.append(h('li', {}, editor.node, h('button', { type: 'button', class: 'small', onclick: remove }, `Remove ${name} ${position + 1}`)))
        if (value !== undefined) editor.write(value)
      }
      const write = (value: unknown) => {
        items.length = 0
        list.replaceChildren()
        if (Array.isArray(value)) for (const item of value) add(item)
      }
      return {
        node: h('fieldset', { class: 'array' }, h('legend', {}, name), list, h('button', { type: 'button', class: 'small', onclick: () => (add(), onChange()) }, `Add ${name}`)),
        read: () => {
          const value = items.map((editor) => editor.read()).filter((item) => item !== undefined)
          return required || value.length > 0 ? value : undefined
        },
        write,
      }
    }
    if (schema.type === 'boolean') {
      let touched = false
      const box = h('input', { id, type: 'checkbox', 'aria-describedby': described, onchange: () => ((touched = true), onChange()) })
      return {
        node: h('div', { class: 'field check' }, box, label(), hint(schema, id)),
        read: () => (required || touched ? box.checked : undefined),
        write: (value) => {
          touched = typeof value === 'boolean'
          box.checked = value === true
        },
      }
    }
    if (schema.type === 'string' || schema.type === 'number' || schema.type === 'integer') {
      const numeric = schema.type !== 'string'
      const input = h('input', {
        id,
        type: numeric ? 'number' : 'text',
        step: schema.type === 'integer' ? '1' : numeric ? 'any' : undefined,
        required,
        placeholder: schema.format ?? schema.pattern,
        'aria-describedby': described,
        oninput: onChange,
      })
      return {
        node: h('div', { class: 'field' }, label(), input, hint(schema, id)),
        read: () => (input.value === '' ? (required && !numeric ? '' : undefined) : numeric ? Number(input.value) : input.value),
        write: (value) => (input.value = value === undefined || value === null ? '' : String(value)),
      }
    }
    // Anything else (a free-form value, a `$ref`, a tuple): its JSON, edited as text.
    const area = h('textarea', { id, rows: 3, spellcheck: 'false', 'aria-describedby': described, oninput: onChange })
    return {
      node: h('div', { class: 'field' }, label(), area, hint(schema, id)),
      read: () => {
        try {
          return area.value.trim() === '' ? undefined : JSON.parse(area.value)
        } catch {
          return undefined
        }
      },
      write: (value) => (area.value = value === undefined ? '' : json(value, 2)),
    }
  }

  /** A skeleton value for a schema: what the request-context editor starts from. */
  const sample = (raw: any): unknown => {
    const schema = resolve(raw)
    if (Array.isArray(schema.enum)) return schema.enum[0]
    if (schema.type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, child]) => [key, sample(child)]))
    return { string: '', number: 0, integer: 0, boolean: false, array: [] }[schema.type as string] ?? null
  }

  return { editorFor, sample }
}
