import { relevantBySubstring } from '../../src/retrieval/relevant-by-substring.js'
import { digitNumbers, normalizeForMatch, sourceSpan } from '../../src/testset/normalize.js'
import { questionOverlap } from '../../src/testset/question-overlap.js'
import { spreadOrder } from '../../src/testset/spread-sample.js'

describe('normalizeForMatch', () => {
  it('composes (NFC), collapses whitespace runs, trims and lower-cases, nothing else', () => {
    expect(normalizeForMatch('  AES-256\n\t at\u00a0rest ')).toBe('aes-256 at rest')
    expect(normalizeForMatch('Cafe\u0301')).toBe(normalizeForMatch('Café'))
    expect(normalizeForMatch('AES 256')).not.toBe(normalizeForMatch('AES-256'))
  })

  it('maps a match back to the chunk’s own spelling', () => {
    expect(sourceSpan('Orion has 48 docking\n  bays today', '48 docking bays')).toBe('48 docking\n  bays')
    expect(sourceSpan('The HELIOS Core', 'helios core')).toBe('HELIOS Core')
    expect(sourceSpan('emoji 😀 end', '😀')).toBe('😀')
    expect(sourceSpan('nothing here', 'missing')).toBeUndefined()
  })

  it('agrees with relevantBySubstring on normalised texts', () => {
    const chunks = ['a  Helios\nCore', 'helios core', 'Helios-Core'].map((t, i) => ({ id: i, text: normalizeForMatch(t) }))
    expect([...relevantBySubstring(chunks, normalizeForMatch('Helios Core'), { caseSensitive: true })]).toEqual([0, 1])
  })

  it('reads numbers written in digits, thousands separators removed', () => {
    expect(digitNumbers('1,024 tokens, 3.5 days, 2,5 kg and 8 heads')).toEqual(['1024', '3.5', '2.5', '8'])
  })
})

describe('questionOverlap', () => {
  it('is the Jaccard overlap of word bigrams', () => {
    expect(questionOverlap('How many heads?', 'How many heads are there?')).toBe(0.5)
    expect(questionOverlap('How many heads does the model use?', 'How many heads does the base model use?')).toBe(5 / 8)
    expect(questionOverlap('Who built it?', 'Where is the vault?')).toBe(0)
  })
})

describe('spreadOrder', () => {
  it('is a seeded permutation whose first round takes one position from each stratum', () => {
    for (const seed of [1, 2, 3]) {
      const order = spreadOrder(10, 3, seed)
      expect([...order].sort((a, b) => a - b)).toEqual([...Array(10).keys()])
      // strata [0, 3), [3, 6), [6, 10)
      expect(order.slice(0, 3).map((i) => (i < 3 ? 0 : i < 6 ? 1 : 2))).toEqual([0, 1, 2])
      expect(spreadOrder(10, 3, seed)).toEqual(order)
    }
    expect(spreadOrder(10, 3, 1)).not.toEqual(spreadOrder(10, 3, 2))
  })
})
