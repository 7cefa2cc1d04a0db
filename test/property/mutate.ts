// Mutations of a matcher call for the registry-driven properties: user text made hostile (a string value,
// an object key, a number turned into text), an array given a hole, an options object made non-plain.
// Each walks only what a user writes: arrays and plain objects, never into functions.
import fc from 'fast-check'
import type { Injection } from './printed.js'

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return proto === Object.prototype || proto === null
}

/** Keys whose values are real paths on this machine (the baseline's folder), not text to print. */
const PATH_KEYS = new Set(['dir', 'file'])

/** A place in a call that holds user text: a string, an object key or a number (which the mutation turns into text). */
interface TextSlot {
  readonly kind: 'string' | 'key' | 'number'
  readonly apply: (inject: Injection) => void
}

/** The text slots of `root` (an array: the received value first, then the arguments). */
export function textSlots(root: unknown[]): TextSlot[] {
  const slots: TextSlot[] = []
  const seen = new Set<object>()
  const visit = (holder: Record<string, unknown> | unknown[], key: string | number, depth: number): void => {
    const value = (holder as Record<string | number, unknown>)[key]
    if (typeof value === 'string') {
      slots.push({ kind: 'string', apply: (inject) => ((holder as Record<string | number, unknown>)[key] = inject(value)) })
      return
    }
    if (typeof value === 'number') {
      slots.push({ kind: 'number', apply: (inject) => ((holder as Record<string | number, unknown>)[key] = inject(String(value))) })
      return
    }
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 6) return
    seen.add(value)
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) if (i in value) visit(value, i, depth + 1)
      return
    }
    if (!isPlain(value)) return
    for (const k of Object.keys(value)) {
      if (PATH_KEYS.has(k) || typeof value[k] === 'function') continue
      slots.push({ kind: 'key', apply: (inject) => renameKey(value, k, inject(k)) })
      visit(value, k, depth + 1)
    }
  }
  for (let i = 0; i < root.length; i += 1) visit(root, i, 0)
  return slots
}

/** Renames `from` to `to` in place, keeping the key order (an id as a record key keeps its rank). */
function renameKey(o: Record<string, unknown>, from: string, to: string): void {
  if (!Object.prototype.hasOwnProperty.call(o, from)) return
  const entries = Object.entries(o)
  for (const [k] of entries) delete o[k]
  for (const [k, v] of entries) o[k === from ? to : k] = v
}

/** Which slots to make hostile (indices modulo the slot count) and how. */
export const textMutation = fc.record({
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
  // keys and numbers less often than string values: most user text is values
  kinds: fc.constantFrom<ReadonlyArray<TextSlot['kind']>>(['string'], ['string'], ['string', 'key'], ['string', 'key', 'number']),
})

/** Applies a text mutation to a call in place; returns how many slots it changed. */
export function mutateText(root: unknown[], m: { picks: readonly number[]; kinds: ReadonlyArray<TextSlot['kind']> }, inject: Injection): number {
  const slots = textSlots(root).filter((s) => m.kinds.includes(s.kind))
  const all = slots.length > 0 ? slots : textSlots(root)
  if (all.length === 0) return 0
  const chosen = new Set(m.picks.map((p) => p % all.length))
  for (const i of chosen) all[i]?.apply(inject)
  return chosen.size
}

/** An array a user wrote, with where it sits (so it can be swapped for a watched copy). */
export interface UserArray {
  readonly array: unknown[]
  readonly holder: Record<string | number, unknown>
  readonly key: string | number
}

/** Every array a user wrote in `root` (the received value and the arguments), outermost first. */
export function userArrays(root: unknown[]): UserArray[] {
  const out: UserArray[] = []
  const seen = new Set<object>()
  const visit = (holder: Record<string | number, unknown>, key: string | number, depth: number): void => {
    const value = holder[key]
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 6) return
    seen.add(value)
    if (Array.isArray(value)) {
      out.push({ array: value, holder, key })
      for (let i = 0; i < value.length; i += 1) if (i in value) visit(value as unknown as Record<number, unknown>, i, depth + 1)
      return
    }
    if (!isPlain(value)) return
    for (const k of Object.keys(value)) if (!PATH_KEYS.has(k)) visit(value, k, depth + 1)
  }
  for (let i = 0; i < root.length; i += 1) visit(root as unknown as Record<number, unknown>, i, 0)
  return out
}

/**
 * Puts a watched view of `a.array` in its place: `read()` says whether anything looked into it (its length,
 * an entry, its keys, an iteration) since the last `reset()`. `Array.isArray` still holds for it.
 */
export function watch(a: UserArray): { read: () => boolean; reset: () => void } {
  let touched = false
  a.holder[a.key] = new Proxy(a.array, {
    get(target, property, receiver) {
      touched = true
      return Reflect.get(target, property, receiver) as unknown
    },
    has(target, property) {
      touched = true
      return Reflect.has(target, property)
    },
    ownKeys(target) {
      touched = true
      return Reflect.ownKeys(target)
    },
  })
  return { read: () => touched, reset: () => (touched = false) }
}

/**
 * Punches a hole into `array` in place at `at` (modulo its length + 1, so the hole may also be a new slot
 * at the end): `['a', 'b']` → `['a', <empty>, 'b']`. The array keeps its other entries in order.
 */
export function punchHole(array: unknown[], at: number): void {
  const position = at % (array.length + 1)
  const items = [...array]
  array.length = 0
  array.length = items.length + 1
  let next = 0
  for (let i = 0; i < array.length; i += 1) if (i !== position) array[i] = items[next++]
}

/** How an options object can fail to be a plain object with own enumerable string keys. */
export type OptionsShape = 'map' | 'class' | 'inherited' | 'symbol' | 'hidden' | 'hidden-getter' | 'array' | 'null-proto-inherited'

export const OPTIONS_SHAPES: readonly OptionsShape[] = ['map', 'class', 'inherited', 'symbol', 'hidden', 'hidden-getter', 'array', 'null-proto-inherited']

class UserOptions {}

/**
 * `entries` (a valid options object) as one that is not plain: a Map, a class instance, `Object.create(proto)`
 * holding them, a symbol key beside them, one key non-enumerable (a value or a getter), an array with them as
 * properties, or inherited from a null-prototype object.
 */
export function nonPlainOptions(entries: Record<string, unknown>, shape: OptionsShape): object {
  const first = Object.keys(entries)[0] ?? 'hidden'
  switch (shape) {
    case 'map':
      return new Map(Object.entries(entries))
    case 'class':
      return Object.assign(new UserOptions(), entries)
    case 'inherited':
      return Object.create({ ...entries }) as object
    case 'null-proto-inherited':
      return Object.create(Object.assign(Object.create(null) as object, entries)) as object
    case 'symbol':
      return { ...entries, [Symbol(first)]: entries[first] ?? 1 }
    case 'hidden':
      return Object.defineProperty({ ...entries }, first, { value: entries[first] ?? 1, enumerable: false })
    case 'hidden-getter':
      return Object.defineProperty({ ...entries }, first, { get: () => entries[first] ?? 1, enumerable: false })
    case 'array':
      return Object.assign([], entries)
  }
}
