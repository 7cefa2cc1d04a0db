/**
 * Building the page: every element is made with createElement and every text from a run goes in through
 * a text node, never through HTML parsing, so an id, answer or reason that reads `<script>` or
 * `"><img onerror=…>` is shown as those characters. Links take app routes only (`#/…`), so a
 * `javascript:` string from a run can never become an href.
 */

type Child = Node | string | number | null | undefined | false
type Attrs = Readonly<Record<string, string | number | boolean | undefined>>

/** An element with attributes (set one by one, as values) and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    if (name === 'href') throw new Error('use link() for links')
    if (name.startsWith('on')) throw new Error('event handlers are added with addEventListener')
    el.setAttribute(name === 'className' ? 'class' : name, value === true ? '' : String(value))
  }
  append(el, ...children)
  return el
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c)
  }
}

/** A link to an app route; the route is built from encoded parts (see route()). */
export function link(route: string, text: Child, attrs: Attrs = {}): HTMLAnchorElement {
  if (!route.startsWith('#/')) throw new Error(`not an app route: ${route}`)
  const a = h('a', attrs, text)
  a.setAttribute('href', route)
  return a
}

/** The ratings export's path (`ratings/<runId>/<setKey>[/<otherId>].jsonl`): the one link that is not an app route. */
const DOWNLOAD = /^ratings\/[0-9a-f]{1,64}\/[0-9a-f]{16}(?:\/[0-9a-f]{1,64})?\.jsonl$/

/** A download link to the ratings export; any other path is refused. */
export function downloadLink(path: string, text: Child, attrs: Attrs = {}): HTMLAnchorElement {
  if (!DOWNLOAD.test(path)) throw new Error(`not a ratings export: ${path}`)
  const a = h('a', attrs, text)
  a.setAttribute('href', path)
  a.setAttribute('download', '')
  return a
}

/** `#/run/<id>` from raw parts: each part is percent-encoded, so any text is one path segment. */
export function route(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`
}

/** Text that may be very long: the first `max` characters, and a button that shows the rest. */
export function longText(text: string, max = 200): HTMLElement {
  const span = h('span', { className: 'text' })
  if (text.length <= max) {
    span.textContent = text
    return span
  }
  span.textContent = `${text.slice(0, max)}…`
  const more = h('button', { type: 'button', className: 'more' }, `show all ${text.length} characters`)
  more.addEventListener('click', () => {
    span.textContent = text
    more.remove()
  })
  const wrap = h('span', {}, span, ' ', more)
  return wrap
}

/** A table in a scroll box that keyboard users can reach (a focusable, labelled region). */
export function scrollBox(label: string, table: HTMLElement): HTMLElement {
  return h('div', { className: 'scroll', tabindex: 0, role: 'region', 'aria-label': label }, table)
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild)
}
