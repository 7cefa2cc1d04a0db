// Random and hostile inputs for the property suite: empty, huge, NaN, ±Infinity, −0, sparse arrays,
// duplicate ids, Unicode edge cases and mixed types, mixed into otherwise plausible values. Issue #27 adds
// arrays with holes and options objects that are not plain (a Map, a class instance, inherited, symbol or
// non-enumerable keys); the ones every matcher must refuse are marked in MUST_REFUSE, which the harness reads.
import fc from 'fast-check'

/**
 * Generated values that make any input containing them a Matcher error in both directions (harness.ts
 * `mustRefuse`): a hole in a user array the matcher layer reads, an options object that is not plain.
 */
export const MUST_REFUSE = new WeakSet<object>()

function refused<T extends object>(value: T, mark = true): T {
  if (mark) MUST_REFUSE.add(value)
  return value
}

/**
 * An array of `item` with at least one hole (`['a', <empty>, 'b']`), at a generated position. `mark`: the
 * matchers must refuse it (the arrays this layer owns: cases, retrieved, relevant, references); unmarked holes
 * (contexts, ratings, scores) only have to keep the general rule.
 */
export function holey(item: fc.Arbitrary<unknown>, { maxLength = 5, mark = true }: { maxLength?: number; mark?: boolean } = {}): fc.Arbitrary<unknown[]> {
  return fc.tuple(fc.array(item, { maxLength }), fc.nat(), fc.nat({ max: 2 })).map(([items, at, extra]) => {
    const length = items.length + 1 + extra
    const hole = at % length
    const out: unknown[] = new Array(length)
    let next = 0
    for (let i = 0; i < length; i += 1) if (i !== hole && next < items.length) out[i] = items[next++]
    return refused(out, mark)
  })
}

/** How an options object can fail to be a plain object with own enumerable string keys. */
export type OptionsShape = 'map' | 'class' | 'inherited' | 'symbol' | 'hidden' | 'hidden-getter' | 'array-like'

class GeneratedOptions {}

/**
 * `valid` (a plain options object) turned into one that is not plain: its entries in a Map, on a class
 * instance, on the prototype of an empty object, next to a symbol key, or one key made non-enumerable.
 * Every matcher must refuse each of them (marked in {@link MUST_REFUSE}).
 */
export function hostileOptions(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const shapes: OptionsShape[] = ['map', 'class', 'inherited', 'symbol', 'hidden', 'hidden-getter', 'array-like']
  return fc.tuple(valid, fc.constantFrom(...shapes)).map(([o, shape]) => {
    const entries = o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {}
    const first = Object.keys(entries)[0] ?? 'hidden'
    switch (shape) {
      case 'map':
        return refused(new Map(Object.entries(entries)))
      case 'class':
        return refused(Object.assign(new GeneratedOptions(), entries))
      case 'inherited':
        return refused(Object.create({ ...entries }) as object)
      case 'symbol':
        return refused({ ...entries, [Symbol(first)]: entries[first] ?? 1 })
      case 'hidden':
        return refused(Object.defineProperty({ ...entries }, first, { value: entries[first] ?? 1, enumerable: false }))
      case 'hidden-getter':
        return refused(Object.defineProperty({ ...entries }, first, { get: () => entries[first] ?? 1, enumerable: false }))
      case 'array-like':
        return refused(Object.assign([], entries))
    }
  })
}

/** Numbers that break naive arithmetic, plus ordinary ones. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0, 1, -1, 0.5, 1e308, -1e308, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER, 1023, 1024, 2 ** 53 + 1),
  fc.double(),
  fc.integer({ min: -5, max: 12 }),
)

/** Strings users do not expect: empty, blank, lone surrogates, combining marks, zero-width, RTL, NUL, prototype keys. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\n\t ',
    '\u0000',
    '\uD800',
    '\uDFFF',
    'e\u0301',
    '\u200B',
    '\u202Eabc',
    'İı',
    'ß',
    'ﬁ',
    '🙂👍🏽',
    '__proto__',
    'constructor',
    'NaN',
    '0',
    '-0',
    '1e308',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
)

/** Anything at all, for a wrong-type argument. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  hostileNumber,
  hostileString,
  fc.constantFrom(null, undefined, true, false, Symbol.for('x'), () => 1, new Map(), new Set(), new Date(0), /x/, 10n),
  fc.array(fc.oneof(hostileNumber, hostileString, fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(hostileString, fc.oneof(hostileNumber, hostileString), { maxKeys: 3 }),
)

/** A few ids that collide often (duplicates), plus hostile ones and wrong types. */
export const id: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'd', 1, 2) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.record({ id: fc.constantFrom('a', 'b', 'c'), score: hostileNumber }) },
  { weight: 1, arbitrary: junk },
)

const grade = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -1, max: 3 }) }, { weight: 2, arbitrary: hostileNumber }, { weight: 1, arbitrary: junk })

export const relevant: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.array(id, { maxLength: 5 }) },
  { weight: 1, arbitrary: holey(id, { maxLength: 4 }) },
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', '1', '__proto__', ''), grade, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.array(id, { maxLength: 4 }).map((ids) => new Set(ids)) },
  { weight: 1, arbitrary: fc.array(fc.tuple(id, grade), { maxLength: 4 }).map((pairs) => new Map(pairs)) },
  { weight: 1, arbitrary: junk },
)

export const retrievalCase: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ retrieved: fc.array(id, { maxLength: 8 }), relevant }) },
  // a hole in retrieved, sometimes ranked by score
  { weight: 1, arbitrary: fc.record({ retrieved: holey(fc.oneof(id, fc.record({ id: fc.constantFrom('a', 'b', 'c'), score: fc.double() })), { maxLength: 6 }), relevant }) },
  { weight: 1, arbitrary: fc.record({ id: hostileString, retrieved: fc.oneof(fc.array(id), junk), relevant }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: junk },
)

/** One case, an array of cases (sometimes sparse), `{ cases }`, or junk. */
export function received(item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: item },
    { weight: 3, arbitrary: fc.array(item, { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.sparseArray(item, { maxLength: 4 }) },
    { weight: 1, arbitrary: holey(item, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.record({ cases: fc.array(item, { maxLength: 3 }) }) },
    { weight: 1, arbitrary: junk },
  )
}

/** A threshold: mostly in range, sometimes not a number or out of range. */
export function threshold(max = 1): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: fc.double({ min: 0, max, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(0, max, -0) }, { weight: 2, arbitrary: junk })
}

export const k: fc.Arbitrary<unknown> = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 2, arbitrary: junk })

/** A plain options object of the given keys, each valid. */
export function validOptions(keys: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(keys, { requiredKeys: [] })
}

/** An options object of the given keys (each maybe wrong), an unknown key, one that is not a plain object, or junk. */
export function options(keys: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 5,
      arbitrary: fc.record(Object.fromEntries(Object.entries(keys).map(([key, a]) => [key, fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: junk })])), {
        requiredKeys: [],
      }),
    },
    { weight: 1, arbitrary: fc.constant({ bogusOption: 1 }) },
    { weight: 2, arbitrary: hostileOptions(validOptions(keys)) },
    { weight: 1, arbitrary: junk },
  )
}

/** Words for texts: short English, numbers, and hostile strings, joined by spaces. */
const word = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('the', 'cat', 'sat', 'on', 'mat', 'Paris', 'is', 'capital', 'France', 'dogs', 'running', 'ran', 'a', 'of', '.', ',', 'BLEU', 'score'),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer({ min: -1000, max: 100000 }).map(String),
      fc.double({ noNaN: false }).map(String),
      fc.constantFrom('12%', '3.5 GB', 'twelve', '2014', '1st', 'v1.2.3', '1,000', '−4'),
    ),
  },
  { weight: 1, arbitrary: hostileString },
)

export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.array(word, { maxLength: 25 }).map((ws) => ws.join(' ')) },
  { weight: 2, arbitrary: hostileString },
)

/** A long text, below the ~2,000 tokens ROUGE and METEOR are bounded for here. */
export const longText: fc.Arbitrary<string> = fc.array(word, { minLength: 500, maxLength: 1500 }).map((ws) => ws.join(' '))

export const references: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: text },
  { weight: 2, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: holey(text, { maxLength: 2 }) },
  { weight: 1, arbitrary: junk },
)

export const answerCase: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ id: fc.constantFrom('q1', 'q2', 'q1'), answer: text, reference: text }, { requiredKeys: ['answer', 'reference'] }) },
  { weight: 1, arbitrary: fc.record({ answer: text, references: fc.oneof(fc.array(text, { maxLength: 3 }), junk) }) },
  { weight: 1, arbitrary: fc.record({ answer: text, references: holey(text, { maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ answer: fc.oneof(text, junk), reference: fc.oneof(text, junk), error: fc.oneof(fc.constant(undefined), junk) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: junk },
)

/** Contexts for the judge matchers: strings, `{ id?, text }` chunks, or junk. */
export const contexts: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.oneof(text, fc.record({ id: fc.constantFrom('c1', 'c2', 'c1'), text }, { requiredKeys: ['text'] })), { maxLength: 3 }) },
  // holes in contexts: refused by the judge matchers (requireContexts, the set reader), so marked
  { weight: 1, arbitrary: holey(text, { maxLength: 2 }) },
  { weight: 1, arbitrary: junk },
)
