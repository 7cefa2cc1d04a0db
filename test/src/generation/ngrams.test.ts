import fc from 'fast-check'
import { consumeMatches, countKeys, forEachNgramOrder, Interner, KeyCounts, SpanInterner } from '../../../src/generation/ngrams.js'
import { whitespaceSpans } from '../../../src/generation/tokenizers/spans.js'

/** n-grams of each sequence as strings: the obvious, slow reference. */
function naiveNgrams(seqs: number[][], n: number): string[][] {
  return seqs.map((s) => {
    const out: string[] = []
    for (let i = 0; i + n <= s.length; i++) out.push(s.slice(i, i + n).join(','))
    return out
  })
}

/** Checks that keys partition positions exactly as the n-gram strings do. */
function sameEquality(keys: readonly number[][], lengths: readonly number[], strings: string[][]): void {
  const keyOf = new Map<string, number>()
  const stringOf = new Map<number, string>()
  strings.forEach((list, s) => {
    expect(lengths[s]).toBe(list.length)
    list.forEach((text, i) => {
      const key = keys[s]![i]!
      expect(Number.isInteger(key) && key >= 0 && key < 2 ** 30).toBe(true)
      if (keyOf.has(text)) expect(keyOf.get(text)).toBe(key)
      else keyOf.set(text, key)
      if (stringOf.has(key)) expect(stringOf.get(key)).toBe(text)
      else stringOf.set(key, text)
    })
  })
}

describe('forEachNgramOrder', () => {
  it('gives equal keys exactly to equal n-grams, across sequences and orders (small vocabularies)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 15 }), { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6 }), (seqs, maxOrder) => {
        const seen: number[] = []
        forEachNgramOrder(seqs, 6, maxOrder, (n, keys, lengths, bound) => {
          seen.push(n)
          sameEquality(keys, lengths, naiveNgrams(seqs, n))
          keys.forEach((k, s) => k.slice(0, lengths[s]).forEach((key) => expect(key).toBeLessThan(bound)))
        })
        expect(seen).toEqual(Array.from({ length: maxOrder }, (_, i) => i + 1))
      }),
    )
  })

  it('stays exact when the keys would pass 2^30 (renumbering path)', () => {
    // vocabulary 50 000: order 2 already exceeds 2^30 and must be renumbered
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(0, 1, 49_999, 12_345), { maxLength: 12 }), { minLength: 1, maxLength: 3 }), (seqs) => {
        forEachNgramOrder(seqs, 50_000, 5, (n, keys, lengths) => sameEquality(keys, lengths, naiveNgrams(seqs, n)))
      }),
    )
  })
})

describe('KeyCounts', () => {
  it('counts, raises, takes and lists keys like a plain multiset, in direct and hashed mode', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 60 }),
        fc.boolean(),
        (a, b, direct) => {
          const table = new KeyCounts()
          table.reset(a.length + b.length, direct ? 3001 : undefined)
          table.addAll(a, a.length)
          const expected = new Map<number, number>()
          for (const k of a) expected.set(k, (expected.get(k) ?? 0) + 1)
          for (const k of b) {
            table.max(k, 2)
            expected.set(k, Math.max(expected.get(k) ?? 0, 2))
          }
          const listed = new Map<number, number>()
          table.forEach((k, c) => listed.set(k, c))
          expect(listed).toEqual(expected)
          expect(table.size).toBe(expected.size)
          expect(table.get(3001)).toBe(-1)
          // taking is clipping: Σ min(count_a, count_table)
          let clipped = 0
          const left = new Map(expected)
          for (const k of a) {
            const c = left.get(k) ?? 0
            if (c > 0) {
              clipped++
              left.set(k, c - 1)
            }
          }
          expect(consumeMatches(a, a.length, table)).toBe(clipped)
        },
      ),
    )
  })

  it('forgets everything on reset', () => {
    const table = countKeys([1, 2, 2], 3)
    expect(table.get(2)).toBe(2)
    table.reset(1)
    expect(table.get(2)).toBe(-1)
    expect(table.size).toBe(0)
    expect(table.take(1)).toBe(-1)
  })
})

describe('Interner and SpanInterner', () => {
  it('give equal ids exactly to equal tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom('a', 'b', 'ab', 'ba', 'é', '😀', 'a😀', 'x y'), { maxLength: 10 }), { maxLength: 4 }), (lists) => {
        const strings = new Interner<string>()
        const spans = new SpanInterner()
        const texts = lists.map((tokens) => tokens.join(' '))
        spans.reset(texts.reduce((n, t) => n + t.length, 0))
        const byString = texts.map((t) => strings.intern(t.split(' ').filter(Boolean)))
        const bySpan = texts.map((t) => spans.intern(whitespaceSpans(t)))
        expect(bySpan).toEqual(byString)
        expect(spans.size).toBe(strings.size)
      }),
    )
  })

  it('grows past its initial capacity', () => {
    const spans = new SpanInterner()
    const text = Array.from({ length: 5000 }, (_, i) => `w${i % 3000}`).join(' ')
    spans.reset(5000)
    const ids = spans.intern(whitespaceSpans(text))
    expect(spans.size).toBe(3000)
    expect(ids[3000]).toBe(0)
    expect(ids[4999]).toBe(1999)
  })
})

describe('KeyCounts growth', () => {
  it('stays correct when given more distinct keys than announced, in both modes', () => {
    for (const bound of [undefined, 50_000]) {
      const table = new KeyCounts()
      table.reset(2, bound)
      const keys = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 40_000)
      table.addAll(keys, keys.length)
      const expected = new Map<number, number>()
      for (const k of keys) expected.set(k, (expected.get(k) ?? 0) + 1)
      const listed = new Map<number, number>()
      table.forEach((k, c) => listed.set(k, c))
      expect(listed).toEqual(expected)
      expect(table.get(40_001)).toBe(-1)
    }
  })
})
