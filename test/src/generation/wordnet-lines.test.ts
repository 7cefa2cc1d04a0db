import { Lines } from '../../../src/generation/wordnet-lines.js'

// Lines replaces `text.split('\n')` + a binary search over the pieces (the WordNet loader's former
// tables): every answer is checked against that plain form.
function splitFind(text: string, key: string, keyEndsAtSpace = false): number {
  const lines = text.length === 0 ? [] : text.split('\n')
  return lines.findIndex((line) => (keyEndsAtSpace ? line.split(' ')[0] : line) === key)
}

describe('Lines (newline-separated tables searched in place)', () => {
  it('numbers the lines as split("\\n") does, an empty text having none', () => {
    for (const text of ['a', 'a\nb', 'a\n\nb', 'a\n', '\na', 'abc\nd\nef']) {
      const lines = new Lines(text)
      const pieces = text.split('\n')
      expect(lines.count).toBe(pieces.length)
      pieces.forEach((piece, k) => {
        expect(lines.line(k)).toBe(piece)
        expect(text.slice(lines.start(k), lines.end(k))).toBe(piece)
      })
    }
    expect(new Lines('').count).toBe(0)
    expect(new Lines('').find('')).toBe(-1)
  })

  it('finds every line of a sorted list, and nothing between them', () => {
    const words = ['a', 'ab', 'abc', 'abd', 'b', 'ba', 'dog', 'dogs', "o'clock", 'zebra'].sort()
    const text = words.join('\n')
    const lines = new Lines(text)
    words.forEach((word, k) => expect(lines.find(word)).toBe(k))
    for (const absent of ['', 'aa', 'abcd', 'c', 'do', 'doge', 'zz', 'zebr', 'Dog', 'é', '\u{1F600}']) {
      expect(lines.find(absent)).toBe(splitFind(text, absent))
      expect(lines.find(absent)).toBe(-1)
    }
  })

  it('compares in code-unit order, as the sorted data file is written', () => {
    // code-unit order puts U+FFFF after a surrogate pair (0xD83D…), unlike code-point order
    const words = ['a', 'z', '\u{1F600}', '\uFFFF'].sort()
    const lines = new Lines(words.join('\n'))
    words.forEach((word, k) => expect(lines.find(word)).toBe(k))
  })

  it('keyEndsAtSpace: the key is the text before the first space (an .exc line: form base…)', () => {
    const text = ['axes ax axis', 'better good well', 'geese goose', 'men man'].join('\n')
    const lines = new Lines(text)
    for (const key of ['axes', 'better', 'geese', 'men', 'ax', 'axe', 'axes ax', 'good', 'me', 'mens', 'zz', '']) {
      expect(lines.find(key, true)).toBe(splitFind(text, key, true))
    }
    expect(lines.line(lines.find('better', true))).toBe('better good well')
  })

  it('agrees with split + search on generated sorted lists', () => {
    let seed = 7
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed / 2 ** 32
    }
    const letters = 'abcdefy -'
    const word = (): string => Array.from({ length: 1 + Math.floor(next() * 6) }, () => letters[Math.floor(next() * letters.length)]).join('')
    for (let round = 0; round < 20; round++) {
      const words = [...new Set(Array.from({ length: 1 + Math.floor(next() * 60) }, word))].sort()
      const text = words.join('\n')
      const lines = new Lines(text)
      for (let probe = 0; probe < 50; probe++) {
        const key = next() < 0.5 ? (words[Math.floor(next() * words.length)] as string) : word()
        expect(lines.find(key)).toBe(splitFind(text, key))
      }
    }
  })

  it('hashed lookups: order does not matter, a key met twice gives its first line, like split + findIndex', () => {
    const text = ['dog', 'cat', 'dog', 'ant a', 'ant b', '', 'bee c d'].join('\n')
    const lines = new Lines(text)
    for (const key of ['dog', 'cat', 'ant a', 'ant', '', 'bee', 'bee c d', 'zz']) {
      expect(lines.find(key)).toBe(splitFind(text, key))
      expect(lines.find(key, true)).toBe(splitFind(text, key, true))
    }
    expect(lines.find('dog')).toBe(0)
    expect(lines.find('ant', true)).toBe(3)
  })
})
