// METEOR and ROUGE look words up in a hashed TokenTable, and their ASCII scans find a word without
// slicing it out of the text. The straightforward paths they must agree with: a Map of the
// lower-cased words (for the table), the token-array input (METEOR) and the general path that any
// non-ASCII character selects (ROUGE). Seeded, so every case can be replayed.
import { describe, expect, test } from 'vitest'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { meteorScore } from '../../../src/generation/meteor.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { hashStep, HASH_SEED, hashText, TokenTable, asciiLower } from '../../../src/generation/token-table.js'
import { pySplit } from '../../../src/text/python-string.js'

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const COMMON = ['the', 'The', 'a', 'running', 'runs', 'ran', 'quick', 'fast', 'big', 'large', 'model', 'Models', 'task', 'task.', "it's", 'U.S.', '28.4']

function word(rand: () => number): string {
  if (rand() < 0.5) return COMMON[Math.floor(rand() * COMMON.length)]!
  const length = 1 + Math.floor(rand() * 9)
  let w = ''
  for (let k = 0; k < length; k++) w += LETTERS[Math.floor(rand() * LETTERS.length)]
  return rand() < 0.1 ? `${w},` : w
}

function sentence(rand: () => number, words: number): string {
  const gaps = [' ', ' ', ' ', '  ', '\t', ' - ']
  let s = ''
  for (let k = 0; k < words; k++) s += (k > 0 ? gaps[Math.floor(rand() * gaps.length)] : '') + word(rand)
  return s
}

describe('TokenTable', () => {
  test('agrees with a Map through growth, including ASCII-range lookups', () => {
    const rand = random(11)
    const table = new TokenTable()
    const map = new Map<string, number>()
    for (let step = 0; step < 20_000; step++) {
      const text = rand() < 0.05 ? `é${word(rand)}ß` : word(rand).toLowerCase()
      const h = hashText(text)
      const want = map.get(text) ?? -1
      expect(table.find(text, h)).toBe(want)
      if (want < 0) map.set(text, table.add(text, h))
      expect(table.size).toBe(map.size)
    }
    for (let step = 0; step < 2_000; step++) {
      const source = `  ${word(rand)} `
      let h = HASH_SEED
      for (let k = 2; k < source.length - 1; k++) h = hashStep(h, asciiLower(source.charCodeAt(k)))
      const lower = source.slice(2, -1).toLowerCase()
      expect(h).toBe(hashText(lower))
      expect(table.findAsciiLower(source, 2, source.length - 1, h)).toBe(map.get(lower) ?? -1)
    }
  })
})

describe('METEOR string scan against the token-array input', () => {
  test.each([1, 2, 3])('seed %i: 300 random pairs with many distinct words', (seed) => {
    const rand = random(seed)
    for (let c = 0; c < 300; c++) {
      const hyp = sentence(rand, Math.floor(rand() * 30))
      const ref = sentence(rand, 1 + Math.floor(rand() * 30))
      const fromText = meteorScore(hyp, ref)
      const fromTokens = meteorScore(pySplit(hyp), [pySplit(ref)])
      expect({ hyp, ref, details: fromText.details }).toEqual({ hyp, ref, details: fromTokens.details })
      // every candidate token shows up as itself, lower-cased
      const seen = fromText.details.matches.pairs.map((p) => [p.candidate, p.candidateToken] as const)
      for (const [i, text] of seen) expect(text).toBe(pySplit(hyp)[i]!.toLowerCase())
    }
  })

  test('several references keep the best alignment while the next one is computed', () => {
    const rand = random(4)
    for (let c = 0; c < 100; c++) {
      const hyp = sentence(rand, 5 + Math.floor(rand() * 20))
      const refs = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => sentence(rand, 1 + Math.floor(rand() * 25)))
      const all = meteorScore(hyp, refs)
      const single = refs.map((r) => meteorScore(hyp, r))
      expect(all.details.referenceScores).toEqual(single.map((s) => s.value))
      expect(all.details.matches).toEqual(single[all.details.bestReferenceIndex]!.details.matches)
    }
  })
})

describe('ROUGE ASCII scan against the general tokenizer path', () => {
  test.each([
    [5, true],
    [6, false],
  ])('seed %i, stemmer %s: 300 random pairs', (seed, stemmer) => {
    const rand = random(seed)
    for (let c = 0; c < 300; c++) {
      const hyp = sentence(rand, Math.floor(rand() * 30))
      const ref = sentence(rand, Math.floor(rand() * 30))
      // a trailing non-ASCII letter takes the general path and, lower-cased, only separates tokens
      const options = { types: ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const, stemmer }
      const fast = rougeScore(hyp, ref, options)
      const general = rougeScore(`${hyp} é`, `${ref} é`, options)
      expect({ hyp, ref, scores: fast }).toEqual({ hyp, ref, scores: general })
    }
  })
})

describe('ROUGE id arrays from the per-call arena', () => {
  test('many and long references (past the kept arena) score as they do one at a time', () => {
    const rand = random(12)
    const hyp = sentence(rand, 40)
    // 40 references, four of 20,000 words: past the 65,536 ids the arena keeps
    const refs = Array.from({ length: 40 }, (_, k) => sentence(rand, k % 10 === 0 ? 20_000 : 1 + Math.floor(rand() * 40)))
    const options = { types: ['rouge2', 'rougeL'] as const, stemmer: true }
    const all = rougeScore(hyp, refs, options)
    const single = refs.map((r) => rougeScore(hyp, r, options))
    expect(all.rougeL!.details.perReference).toEqual(
      single.map((s) => ({ precision: s.rougeL!.details.precision, recall: s.rougeL!.details.recall, fmeasure: s.rougeL!.value })),
    )
    expect(all.rouge2!.details.perReference.map((p) => p.fmeasure)).toEqual(single.map((s) => s.rouge2!.value))
    const best = all.rougeL!.details.bestReferenceIndex
    expect(all.rougeL!.details.missedReferenceTokens).toEqual(single[best]!.rougeL!.details.missedReferenceTokens)
  })
})
