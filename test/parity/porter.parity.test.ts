// NLTK 3.8 PorterStemmer parity, all three modes: the golden words and NLTK's own test vectors.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { porterStem, type PorterMode } from '../../src/generation/stemmers/porter.js'
import { fixturePath, loadFixture } from './fixtures/load.js'

type GoldenStems = Record<string, { nltk_extensions: string; original: string; martin: string }>

const golden = loadFixture<{ cases: Array<{ id: string; porter: GoldenStems }>; porter_vocab: GoldenStems }>('generation.json')
const peers = loadFixture<{
  porter: Array<{ id: string; mode: string; word: string; to_lowercase?: boolean; expected: string; actual: string; call: string }>
  porter_vocabulary: { results: Record<string, { words: number; mismatches: number }> }
}>('nltk.json')

const GOLDEN_KEY: Record<PorterMode, 'nltk_extensions' | 'original' | 'martin'> = {
  nltk: 'nltk_extensions',
  original: 'original',
  martin: 'martin',
}
const NLTK_MODE: Record<string, PorterMode> = {
  NLTK_EXTENSIONS: 'nltk',
  ORIGINAL_ALGORITHM: 'original',
  MARTIN_EXTENSIONS: 'martin',
}
const MODES: PorterMode[] = ['nltk', 'original', 'martin']

/** Every word whose stem differs from the reference, as "word → ours (expected)". */
function mismatches(words: Iterable<[string, string]>, mode: PorterMode): string[] {
  const out: string[] = []
  for (const [word, expected] of words) {
    const ours = porterStem(word, mode)
    if (ours !== expected) out.push(`${JSON.stringify(word)} → ${JSON.stringify(ours)} (${JSON.stringify(expected)})`)
  }
  return out
}

function readLines(name: string): string[] {
  const text = gunzipSync(readFileSync(fixturePath(`nltk-porter/${name}.gz`))).toString('utf8')
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

describe('Porter stemmer parity with NLTK 3.8', () => {
  describe.each(MODES)('mode %s', (mode) => {
    it('stems every word of every golden case like PorterStemmer(mode).stem', () => {
      const words: Array<[string, string]> = []
      for (const c of golden.cases) for (const [word, stems] of Object.entries(c.porter)) words.push([word, stems[GOLDEN_KEY[mode]]])
      expect(words.length).toBeGreaterThan(5000)
      expect(mismatches(words, mode)).toEqual([])
    })

    it('stems the golden porter_vocab (WordNet sample, paper examples, NLTK quirks)', () => {
      const words = Object.entries(golden.porter_vocab).map(([w, s]): [string, string] => [w, s[GOLDEN_KEY[mode]]])
      expect(words.length).toBe(1103)
      expect(mismatches(words, mode)).toEqual([])
    })
  })

  it('passes the stem.doctest and test_stem.py examples', () => {
    expect(peers.porter.length).toBeGreaterThan(0)
    for (const c of peers.porter) {
      const mode = NLTK_MODE[c.mode]
      expect(mode, c.id).toBeDefined()
      const ours = porterStem(c.word, mode, { lowercase: c.to_lowercase ?? true })
      // `actual` is what NLTK returns here; the test's `expected` is the same word
      expect(ours, c.id).toBe(c.actual)
      expect(ours, c.id).toBe(c.expected)
    }
  })

  describe('NLTK test_stem.py vocabulary (23,531 words)', () => {
    const vocabulary = readLines('porter_vocabulary.txt')
    const files: Record<PorterMode, string> = {
      nltk: 'porter_nltk_output.txt',
      original: 'porter_original_output.txt',
      martin: 'porter_martin_output.txt',
    }
    const nltkName: Record<PorterMode, string> = { nltk: 'NLTK_EXTENSIONS', original: 'ORIGINAL_ALGORITHM', martin: 'MARTIN_EXTENSIONS' }

    it.each(MODES)('mode %s has 0 mismatches', (mode) => {
      const expected = readLines(files[mode])
      expect(vocabulary.length).toBe(23531)
      expect(expected.length).toBe(vocabulary.length)
      expect(peers.porter_vocabulary.results[nltkName[mode]]?.words).toBe(vocabulary.length)
      const pairs = vocabulary.map((w, i): [string, string] => [w, expected[i] as string])
      expect(mismatches(pairs, mode)).toEqual([])
    })
  })
})
