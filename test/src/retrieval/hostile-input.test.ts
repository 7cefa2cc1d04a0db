// Issue #27 in the core: holes in user arrays and options objects that are not plain objects are
// MetricInputErrors naming what was expected; the helpers other modules reuse are tested here too.
import { denseArray, denseOr, firstHole, holeProblem } from '../../../src/dense-array.js'
import { isPlainObject, optionsProblem, readOptions } from '../../../src/options.js'
import { evaluateRetrieval, MetricInputError, ndcgAtK, recallAtK, relevantBySubstring, retrievalMetrics } from '../../../src/index.js'

/** `['a', <hole>, 'b']` without a sparse-array literal. */
function sparse<T>(...items: Array<T | 'HOLE'>): T[] {
  const out: T[] = new Array(items.length)
  items.forEach((item, i) => {
    if (item !== 'HOLE') out[i] = item
  })
  return out
}

describe('the hole helpers (src/dense-array.ts)', () => {
  it('find a hole with `i in array`, whatever forEach or for…of would do', () => {
    expect(firstHole(sparse('a', 'HOLE', 'b'))).toBe(1)
    expect(firstHole(['a', undefined, 'b'])).toBe(-1)
    expect(firstHole(new Array(2))).toBe(0)
    expect(firstHole([])).toBe(-1)
    expect(holeProblem('retrieved', 1)).toBe('retrieved[1] is a hole (an empty slot in a sparse array)')
  })
  it('denseArray copies or throws a MetricInputError naming the position', () => {
    expect(denseArray('f', 'xs', ['a', 'b'])).toEqual(['a', 'b'])
    expect(() => denseArray('f', 'xs', sparse('a', 'HOLE'), 'a string')).toThrow('f: Expected `xs[1]` to be a string, got a hole (an empty slot in a sparse array)')
    expect(() =>
      denseOr(sparse('HOLE', 'b'), (i) => {
        throw new Error(`hole at ${i}`)
      }),
    ).toThrow('hole at 0')
  })
})

describe('holes are refused by the retrieval core', () => {
  it('in retrieved, with either order', () => {
    const c = { retrieved: sparse('a', 'HOLE', 'b'), relevant: ['b'] }
    const want = 'recallAtK: Expected `retrieved[1]` to be an id (string or number) or an object with an `id`, got a hole (an empty slot in a sparse array)'
    expect(() => recallAtK(c, 2)).toThrow(want)
    const scored = { retrieved: sparse({ id: 'a', score: 1 }, 'HOLE', { id: 'b', score: 2 }), relevant: ['b'] }
    expect(() => recallAtK(scored, 2, { order: 'score' })).toThrow('`retrieved[1]`')
  })
  it('in relevant, in the cases of evaluateRetrieval and in the chunks of relevantBySubstring', () => {
    expect(() => ndcgAtK({ retrieved: ['a'], relevant: sparse('HOLE', 'a') }, 1)).toThrow('Expected `relevant[0]` to be an id (string or number), got a hole')
    expect(() => evaluateRetrieval(sparse({ retrieved: ['a'], relevant: ['a'] }, 'HOLE'), { k: 1 })).toThrow(
      'Expected `cases[1]` to be a case `{ retrieved, relevant }`, got a hole',
    )
    expect(() => relevantBySubstring(sparse({ id: 'c1', text: 'x' }, 'HOLE'), 'x')).toThrow('Expected `chunks[1]`')
  })
})

describe('one options reader (src/options.ts)', () => {
  class Options {
    duplicates = 'error'
  }
  const hostile: Array<[string, unknown, string]> = [
    ['a Map', new Map([['duplicates', 'error']]), 'a plain object (an object literal), not a Map'],
    ['a class instance', new Options(), 'not a Options'],
    ['an array', ['error'], 'Expected `options` to be an object, got'],
    ['inherited keys', Object.create({ duplicates: 'error' }) as object, 'inherits from another object'],
    ['a symbol key', { [Symbol('duplicates')]: 'error' }, 'string keys only'],
    ['a non-enumerable key', Object.defineProperty({}, 'duplicates', { value: 'error', enumerable: false }), "'duplicates' is not enumerable"],
    ['a non-enumerable getter', Object.defineProperty({}, 'duplicates', { get: () => 'error' }), "'duplicates' is not enumerable"],
  ]
  it.each(hostile)('refuses %s in every core function that takes options', (_what, options, expected) => {
    const c = { retrieved: ['a', 'a'], relevant: ['a'] }
    for (const run of [
      () => recallAtK(c, 1, options as never),
      () => ndcgAtK(c, 1, options as never),
      () => retrievalMetrics(c.retrieved, c.relevant, 1, options as never),
      () => relevantBySubstring([{ id: 'a', text: 'x' }], 'x', options as never),
    ]) {
      expect(run).toThrow(MetricInputError)
      expect(run).toThrow(expected)
    }
    expect(() => evaluateRetrieval([c], options as never)).toThrow(MetricInputError)
    expect(optionsProblem(options)).toBeDefined()
  })
  it('accepts object literals and null-prototype objects, and reads own enumerable keys once', () => {
    expect(isPlainObject({})).toBe(true)
    expect(isPlainObject(Object.create(null))).toBe(true)
    expect(isPlainObject(Object.create(Object.create(null) as object))).toBe(false)
    let reads = 0
    const counted = {
      get duplicates() {
        reads += 1
        return 'first'
      },
    }
    expect(readOptions('f', counted, ['duplicates'])).toEqual({ duplicates: 'first' })
    expect(reads).toBe(1)
    expect(readOptions('f', undefined, [])).toEqual({})
    expect(() => readOptions('f', { gian: 1 }, ['gain'])).toThrow("unknown option 'gian' — did you mean 'gain'?")
    expect(recallAtK({ retrieved: ['a'], relevant: ['a'] }, 1, Object.assign(Object.create(null) as object, { duplicates: 'first' }) as never).value).toBe(1)
  })
})
