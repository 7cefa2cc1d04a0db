import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { FormIndex } from '../../../src/generation/wordnet-index.js'
import { Lines } from '../../../src/generation/wordnet-lines.js'
import { hashText } from '../../../src/generation/token-table.js'
import { loadWordNet, WORDNET_POS } from '../../../src/generation/wordnet.js'

// Every answer is checked against the plain form the index replaces: split('\n') and a scan for the
// first line with the key (a line's key is the line, or with keyEndsAtSpace its text before the first space).
function splitFind(text: string, key: string, keyEndsAtSpace: boolean): number {
  const lines = text.length === 0 ? [] : text.split('\n')
  return lines.findIndex((line) => (keyEndsAtSpace ? line.split(' ')[0] : line) === key)
}

function indexOf(columns: ReadonlyArray<readonly [text: string, keyEndsAtSpace: boolean]>): FormIndex {
  return new FormIndex(columns.map(([text, keyEndsAtSpace]) => ({ lines: new Lines(text), keyEndsAtSpace })))
}

/** The line of `key` in each column, as the index gives it. */
function linesOf(index: FormIndex, key: string): number[] {
  const entry = index.find(key)
  return Array.from({ length: index.columns }, (_, c) => index.line(entry, c))
}

function expectLikeSplit(columns: ReadonlyArray<readonly [string, boolean]>, keys: readonly string[]): void {
  const index = indexOf(columns)
  for (const key of keys) {
    expect(linesOf(index, key), JSON.stringify(key)).toEqual(columns.map(([text, keyEndsAtSpace]) => splitFind(text, key, keyEndsAtSpace)))
  }
}

describe('FormIndex (one hash index over several line tables)', () => {
  it('finds every line of one table, and nothing between them', () => {
    const words = ['a', 'ab', 'abc', 'abd', 'b', 'ba', 'dog', 'dogs', "o'clock", 'zebra']
    const absent = ['', 'aa', 'abcd', 'c', 'do', 'doge', 'zz', 'zebr', 'Dog', 'é', '\u{1F600}']
    expectLikeSplit([[words.join('\n'), false]], [...words, ...absent])
    const index = indexOf([[words.join('\n'), false]])
    words.forEach((word, k) => expect(index.line(index.find(word), 0)).toBe(k))
    for (const key of absent) expect(index.find(key)).toBe(-1)
    expect(index.size).toBe(words.length)
  })

  it('compares code units: surrogates, U+FFFF and case are keys like any other', () => {
    const words = ['a', 'z', '\u{1F600}', '\uFFFF', 'Dog', 'dog', '\uD83D']
    expectLikeSplit([[words.join('\n'), false]], [...words, '\uDE00', 'DOG', 'dOg', '\u{1F601}'])
  })

  it('an empty table has no line, and an empty line is the key ""', () => {
    expectLikeSplit([['', false]], ['', 'a'])
    expect(indexOf([['', false]]).size).toBe(0)
    expectLikeSplit([['a\n\nb', false]], ['', 'a', 'b', 'ab'])
    expectLikeSplit([['a\n', false]], ['', 'a'])
    expectLikeSplit([['\na', false]], ['', 'a'])
  })

  it('keyEndsAtSpace: the key is the text before the first space (an .exc line: form base…)', () => {
    const text = ['axes ax axis', 'better good well', 'geese goose', 'men man', ' lead', 'trail '].join('\n')
    expectLikeSplit([[text, true]], ['axes', 'better', 'geese', 'men', 'ax', 'axe', 'axes ax', 'good', 'me', 'mens', 'zz', '', 'trail', 'trail ', ' lead', 'lead'])
    const index = indexOf([[text, true]])
    expect(index.key(index.find('better'))).toBe('better')
  })

  it('a key met twice in a table gives its first line, as split + findIndex does', () => {
    const text = ['dog', 'cat', 'dog', 'ant a', 'ant b', '', 'bee c d', 'dog'].join('\n')
    const keys = ['dog', 'cat', 'ant a', 'ant', '', 'bee', 'bee c d', 'zz']
    expectLikeSplit([[text, false]], keys)
    expectLikeSplit([[text, true]], keys)
    expectLikeSplit(
      [
        [text, true],
        [text, false],
      ],
      keys,
    )
  })

  it('a key in several tables has one entry that gives its line in each', () => {
    const columns: Array<[string, boolean]> = [
      ['best\nfast\nquick', false],
      ['fast\nrun', false],
      ['best good\nran run', true],
      ['', false],
      ['fast', false],
    ]
    expectLikeSplit(columns, ['best', 'fast', 'quick', 'run', 'ran', 'good', 'slow', ''])
    const index = indexOf(columns)
    expect(index.size).toBe(5) // best, fast, quick, run, ran
    expect(linesOf(index, 'fast')).toEqual([1, 0, -1, -1, 0])
    expect(index.line(-1, 0)).toBe(-1)
  })

  it('tells apart keys whose hashes are equal', () => {
    // FNV-1a collisions (the hash the index uses is token-table's hashText)
    const pairs = [
      ['gjevylcj', 'yrgpgzmb'],
      ['spgfujqt', 'ubuhavon'],
      ['evclufuj', 'qnctsrgv'],
      ['cfydqxcx', 'qxohynef'],
    ] as const
    for (const [a, b] of pairs) expect(hashText(a)).toBe(hashText(b))
    // each pair split over two tables, in both orders, with and without its partner
    const first = pairs.map(([a]) => a)
    const second = pairs.map(([, b]) => b)
    const keys = [...first, ...second, 'gjevylcjx', 'gjevylc']
    expectLikeSplit([[first.join('\n'), false]], keys)
    expectLikeSplit(
      [
        [first.join('\n'), false],
        [second.join('\n'), false],
      ],
      keys,
    )
    expectLikeSplit(
      [
        [second.join('\n'), false],
        [[...first, ...second].join('\n'), false],
      ],
      keys,
    )
    expect(indexOf([[[...first, ...second].join('\n'), false]]).size).toBe(8)
  })

  it('findJoined(head, from, to, tail) finds the key head.slice(from, to) + tail', () => {
    const index = indexOf([
      ['dog\ndogs\nchurch\nbox\nax\naxis', false],
      ['axes ax axis\ngeese goose', true],
    ])
    const cases: Array<[string, number, number, string]> = [
      ['dogs', 0, 3, ''],
      ['dogs', 0, 4, ''],
      ['churches', 0, 4, 'ch'],
      ['boxes', 0, 3, ''],
      ['axes', 0, 2, 'is'],
      ['axes ax axis', 5, 7, ''],
      ['axes ax axis', 8, 12, ''],
      ['axes ax axis', 0, 4, ''],
      ['xgeesex', 1, 6, ''],
      ['', 0, 0, 'geese'],
      ['do', 0, 2, 'g'],
      ['dog', 0, 3, 'ss'],
      ['dog', 3, 3, ''],
    ]
    for (const [head, from, to, tail] of cases) {
      expect(index.findJoined(head, from, to, tail), `${head}[${from}, ${to}) + ${tail}`).toBe(index.find(head.slice(from, to) + tail))
    }
    expect(index.findJoined('churches', 0, 4, 'ch')).toBe(index.find('church'))
    expect(index.find('church')).toBeGreaterThanOrEqual(0)
  })

  it('agrees with split + search on generated tables', () => {
    const next = random(7)
    const letters = 'abcdefy -'
    const word = (): string => Array.from({ length: Math.floor(next() * 6) }, () => letters[Math.floor(next() * letters.length)]).join('')
    for (let round = 0; round < 30; round++) {
      const columns = Array.from({ length: 1 + Math.floor(next() * 4) }, (): [string, boolean] => [
        Array.from({ length: Math.floor(next() * 80) }, word).join('\n'),
        next() < 0.5,
      ])
      const present = columns.flatMap(([text]) => text.split('\n').flatMap((line) => [line, line.split(' ')[0]!]))
      const keys = Array.from({ length: 60 }, () => (next() < 0.5 && present.length > 0 ? present[Math.floor(next() * present.length)]! : word()))
      expectLikeSplit(columns, keys)
    }
  })
})

describe('FormIndex over WordNet 3.0 (the index METEOR looks words up in)', () => {
  it('finds every index lemma and every .exc form of every part of speech on its line, in each table', () => {
    const payload = JSON.parse(gunzipSync(readFileSync(loadWordNet().path)).toString('utf8')) as {
      lemmas: Record<string, string>
      exceptions: Record<string, string>
    }
    const texts = [...WORDNET_POS.map((pos) => payload.lemmas[pos]!), ...WORDNET_POS.map((pos) => payload.exceptions[pos]!)]
    const index = new FormIndex(texts.map((text, c) => ({ lines: new Lines(text), keyEndsAtSpace: c >= 4 })))
    // expected: key → its first line in each table, from split
    const expected = new Map<string, number[]>()
    texts.forEach((text, c) => {
      text.split('\n').forEach((line, k) => {
        const key = c >= 4 ? line.split(' ')[0]! : line
        let row = expected.get(key)
        if (row === undefined) expected.set(key, (row = texts.map(() => -1)))
        if (row[c] === -1) row[c] = k
      })
    })
    expect(index.size).toBe(expected.size)
    let mismatches = 0
    for (const [key, row] of expected) {
      const entry = index.find(key)
      if (index.key(entry) !== key || row.some((line, c) => index.line(entry, c) !== line)) mismatches++
    }
    expect(mismatches).toBe(0)
    for (const key of ['larg', 'automobil', 'Dog', 'dog ', ' dog', 'dogs_', 'xyzzy', 'geese goose']) expect(index.find(key), key).toBe(-1)
  })
})
