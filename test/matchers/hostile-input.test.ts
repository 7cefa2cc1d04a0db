// Runs under Vitest AND Jest (globals only). Issue #27, "Hostile input, second round": holes in user
// arrays, duplicates: 'literal' above 1, and options objects that are not plain objects. Each was a
// silent pass; each is now a Matcher error with or without `.not`.
import { fromLangChainDocuments, fromLlamaIndexNodes } from '../../src/adapters/public.js'
import { failureOf } from '../helpers/failure.js'

/** `['a', <hole>, 'b']`, built without a sparse-array literal (lint rules refuse `[a, , b]`). */
function sparse<T>(...items: Array<T | 'HOLE'>): T[] {
  const out: T[] = new Array(items.length)
  items.forEach((item, i) => {
    if (item !== 'HOLE') out[i] = item
  })
  return out
}

type Run = () => unknown

/** Both directions refuse with a Matcher error containing every `parts`; returns the positive message. */
function refusedBothWays(positive: Run, negated: Run, ...parts: string[]): string {
  const messages = [failureOf(positive), failureOf(negated)]
  for (const message of messages) {
    expect(message).toContain('Matcher error')
    for (const part of parts) expect(message).toContain(part)
  }
  return messages[0] as string
}

describe('a hole in retrieved is refused, never skipped', () => {
  it('toHitWithin: b is at rank 3, not 2', () => {
    const c = { retrieved: sparse('a', 'HOLE', 'b'), relevant: ['b'] }
    refusedBothWays(
      () => expect(c).toHitWithin(2),
      () => expect(c).not.toHitWithin(2),
      'retrieved[1] is a hole (an empty slot in a sparse array)',
    )
  })
  it("with order: 'score'", () => {
    const c = { retrieved: sparse({ id: 'a', score: 0.9 }, 'HOLE', { id: 'b', score: 0.5 }), relevant: ['b'] }
    refusedBothWays(
      () => expect(c).toHitWithin(2, { order: 'score' }),
      () => expect(c).not.toHitWithin(2, { order: 'score' }),
      'retrieved[1] is a hole',
    )
  })
  it('in relevant, and in a case of an eval set (named by the case)', () => {
    const c = { retrieved: ['a', 'b'], relevant: sparse('x', 'HOLE', 'b') }
    refusedBothWays(
      () => expect(c).toHaveRecallAtK(2, 0.5),
      () => expect(c).not.toHaveRecallAtK(2, 0.5),
      'relevant[1] is a hole',
    )
    const set = [
      { id: 'q1', retrieved: ['a'], relevant: ['a'] },
      { id: 'q2', retrieved: sparse('a', 'HOLE', 'b'), relevant: ['b'] },
    ]
    refusedBothWays(
      () => expect(set).toHaveMrrAbove(0.5),
      () => expect(set).not.toHaveMrrAbove(0.5),
      'case q2 (received[1]): retrieved[1] is a hole',
    )
    const holeySet = sparse({ retrieved: ['a'], relevant: ['a'] }, 'HOLE')
    refusedBothWays(
      () => expect(holeySet).toHaveRecallAtK(1, 1),
      () => expect(holeySet).not.toHaveRecallAtK(1, 1),
      'received[1] is a hole (an empty slot in a sparse array)',
    )
  })
  it('undefined is refused too, as before', () => {
    const c = { retrieved: ['a', undefined, 'b'], relevant: ['b'] }
    expect(failureOf(() => expect(c).toHitWithin(2))).toContain('Matcher error')
    expect(failureOf(() => expect(c).not.toHitWithin(2))).toContain('Matcher error')
  })
  it('the adapters refuse a hole instead of keeping it', () => {
    const doc = (id: string) => ({ pageContent: id, metadata: { docId: id } })
    expect(() => fromLangChainDocuments(sparse(doc('a'), 'HOLE', doc('b')), { id: 'docId' })).toThrow(
      'fromLangChainDocuments: Expected `docs[1]` to be a Document or a [Document, score] pair, got a hole (an empty slot in a sparse array)',
    )
    const node = (id: string) => ({ node: { metadata: { docId: id }, text: id }, score: 0.5 })
    expect(() => fromLlamaIndexNodes(sparse(node('a'), 'HOLE', node('b')) as never, { id: 'docId' })).toThrow('Expected `nodes[1]`')
    expect(() => fromLlamaIndexNodes(sparse(node('a'), 'HOLE', node('b')) as never, { id: 'docId' })).toThrow('a hole (an empty slot in a sparse array)')
  })
})

describe("duplicates: 'literal' never leaves the 0–1 scale", () => {
  it('recall: b found three times for two relevant ids is refused, not R@3 = 1.5', () => {
    const c = { retrieved: ['b', 'b', 'b'], relevant: ['b', 'c'] }
    const message = refusedBothWays(
      () => expect(c).toHaveRecallAtK(3, 1, { duplicates: 'literal' }),
      () => expect(c).not.toHaveRecallAtK(3, 1, { duplicates: 'literal' }),
      "within 0–1 under duplicates: 'literal'",
      '"b"',
      "duplicates: 'first'",
    )
    expect(message).toContain('R@3 = 1.5000')
  })
  it('nDCG and MAP as well; precision, hit rate and MRR stay within 1 and are scored', () => {
    const c = { retrieved: ['b', 'b', 'b'], relevant: ['b'] }
    refusedBothWays(
      () => expect(c).toHaveNdcgAtK(3, 0.5, { duplicates: 'literal' }),
      () => expect(c).not.toHaveNdcgAtK(3, 0.5, { duplicates: 'literal' }),
      'nDCG@3',
    )
    refusedBothWays(
      () => expect(c).toHaveMapAtK(3, 0.5, { duplicates: 'literal' }),
      () => expect(c).not.toHaveMapAtK(3, 0.5, { duplicates: 'literal' }),
      'AP@3',
    )
    expect(c).toHavePrecisionAtK(3, 1, { duplicates: 'literal' })
    expect(c).toHaveHitRateAtK(3, 1, { duplicates: 'literal' })
    expect(c).toHaveMrrAbove(1, { duplicates: 'literal' })
    // the default counts b once
    expect(c).toHaveRecallAtK(3, 1)
    expect(c).not.toHavePrecisionAtK(3, 0.5)
  })
})

describe('options must be plain objects with own enumerable string keys', () => {
  const c = { retrieved: ['a', 'a', 'b'], relevant: ['a'] }
  it('a Map is refused, not ignored', () => {
    const options = new Map([['duplicates', 'error']])
    refusedBothWays(
      () => expect(c).toHaveRecallAtK(2, 1, options as never),
      () => expect(c).not.toHaveRecallAtK(2, 1, options as never),
      'options must be a plain object (an object literal), not a Map',
    )
  })
  it('a class instance, and an object whose keys are inherited', () => {
    class Options {
      duplicates = 'error'
    }
    refusedBothWays(
      () => expect(c).toHaveRecallAtK(2, 1, new Options() as never),
      () => expect(c).not.toHaveRecallAtK(2, 1, new Options() as never),
      'not a Options',
    )
    const inherited = Object.create({ tokenise: 'char' }) as object
    refusedBothWays(
      () => expect('the cat').toScoreBleuAbove('the cat', 50, inherited as never),
      () => expect('the cat').not.toScoreBleuAbove('the cat', 50, inherited as never),
      'options must be a plain object',
      'inherits from another object',
    )
    const honoured = Object.create({ tokenize: 'char' }) as object
    refusedBothWays(
      () => expect('the cat').toScoreBleuAbove('the cat', 50, honoured as never),
      () => expect('the cat').not.toScoreBleuAbove('the cat', 50, honoured as never),
      'options must be a plain object',
    )
  })
  it('a symbol key and a non-enumerable key', () => {
    const symbol = { [Symbol('duplicates')]: 'error' }
    refusedBothWays(
      () => expect(c).toHaveRecallAtK(2, 1, symbol as never),
      () => expect(c).not.toHaveRecallAtK(2, 1, symbol as never),
      'options has a symbol key Symbol(duplicates)',
    )
    const hidden = Object.defineProperty({}, 'duplicates', { value: 'error', enumerable: false })
    refusedBothWays(
      () => expect(c).toHaveRecallAtK(2, 1, hidden as never),
      () => expect(c).not.toHaveRecallAtK(2, 1, hidden as never),
      'options.duplicates is not enumerable',
    )
    const getter = Object.defineProperty({}, 'duplicates', { get: () => 'error', enumerable: false })
    expect(failureOf(() => expect(c).toHaveRecallAtK(2, 1, getter as never))).toContain('options.duplicates is not enumerable')
  })
  it('a null-prototype object and an object literal are fine', () => {
    const bare = Object.assign(Object.create(null) as object, { duplicates: 'first' })
    expect(c).toHaveRecallAtK(2, 1, bare as never)
    expect(c).toHaveRecallAtK(2, 1, { duplicates: 'first' })
  })
})
