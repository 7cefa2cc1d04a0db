import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { Lines } from '../../../src/generation/wordnet-lines.js'

// Lines replaces `text.split('\n')` (the WordNet loader's former tables): every answer is checked
// against it. Lookups by key are FormIndex's (wordnet-index.test.ts).
describe('Lines (newline-separated tables read in place)', () => {
  it('numbers the lines as split("\\n") does, an empty text having none', () => {
    for (const text of ['a', 'a\nb', 'a\n\nb', 'a\n', '\na', 'abc\nd\nef', '\n', 'form base\u{1F600}\nx y']) {
      const lines = new Lines(text)
      const pieces = text.split('\n')
      expect(lines.count).toBe(pieces.length)
      expect(lines.text).toBe(text)
      pieces.forEach((piece, k) => {
        expect(lines.line(k)).toBe(piece)
        expect(text.slice(lines.start(k), lines.end(k))).toBe(piece)
      })
    }
    expect(new Lines('').count).toBe(0)
  })

  it('takes a known line count as a hint, and counts the lines itself when the hint is wrong', () => {
    for (const text of ['', 'a', 'a\nb', 'a\n\nb', 'a\n', '\n\n', 'abc\nd\nef']) {
      const pieces = text.length === 0 ? [] : text.split('\n')
      for (const hint of [pieces.length, pieces.length - 1, pieces.length + 1, 0, 1, 2, 100, -1, 1.5, Number.NaN, undefined]) {
        const lines = new Lines(text, hint)
        expect(lines.count, `${JSON.stringify(text)} with ${hint}`).toBe(pieces.length)
        expect(Array.from({ length: lines.count }, (_, k) => lines.line(k))).toEqual(pieces)
        if (lines.count > 0) expect(lines.end(lines.count - 1)).toBe(text.length)
      }
    }
  })

  it('agrees with split on generated texts', () => {
    const next = random(7)
    const units = 'ab \n'
    for (let round = 0; round < 50; round++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => units[Math.floor(next() * units.length)]).join('')
      const lines = new Lines(text)
      const pieces = text.length === 0 ? [] : text.split('\n')
      expect(Array.from({ length: lines.count }, (_, k) => lines.line(k))).toEqual(pieces)
      const hinted = new Lines(text, pieces.length + Math.floor(next() * 3) - 1)
      expect(Array.from({ length: hinted.count }, (_, k) => hinted.line(k))).toEqual(pieces)
    }
  })
})
