import fc from 'fast-check'
import { Interner, SpanInterner } from '../../../src/generation/ngrams.js'
import { whitespaceSpans } from '../../../src/generation/tokenizers/spans.js'

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
