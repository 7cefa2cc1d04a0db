// maxTokens / maxNumbers: every generation metric refuses oversized input up front with a
// MetricInputError naming the limit and the option, accepts it with the limit raised, and rejects
// a malformed limit.
import { MetricInputError } from '../../../src/errors.js'
import { sentenceBleu } from '../../../src/generation/bleu.js'
import { sentenceChrf } from '../../../src/generation/chrf.js'
import { checkTokenCount, countWords, DEFAULT_MAX_LCS_TOKENS, DEFAULT_MAX_TOKENS, resolveMaxTokens } from '../../../src/generation/input-limits.js'
import { meteorScore, singleMeteorScore } from '../../../src/generation/meteor.js'
import { numericConsistency } from '../../../src/generation/numeric-consistency.js'
import { rougeScore } from '../../../src/generation/rouge.js'

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i % 7}`).join(' ')

function thrown(f: () => unknown): MetricInputError {
  try {
    f()
  } catch (error) {
    if (error instanceof MetricInputError) return error
    throw error
  }
  throw new Error('expected a MetricInputError, nothing was thrown')
}

describe('input-limits helpers', () => {
  it('counts whitespace-separated words like Python str.split()', () => {
    expect(countWords('')).toBe(0)
    expect(countWords('  a  b\tc\nd\u00a0e\u3000f ')).toBe(6)
    expect(countWords('one')).toBe(1)
  })

  it('resolves the default, Infinity and positive integers; refuses anything else', () => {
    expect(resolveMaxTokens('f', undefined, 5)).toBe(5)
    expect(resolveMaxTokens('f', Number.POSITIVE_INFINITY, 5)).toBe(Number.POSITIVE_INFINITY)
    expect(resolveMaxTokens('f', 12, 5)).toBe(12)
    for (const bad of [0, -1, 1.5, Number.NaN, '10', null]) {
      expect(() => resolveMaxTokens('f', bad, 5)).toThrow(/Expected `options.maxTokens` to be a positive integer or Infinity/)
    }
  })

  it('names the limit, the option and the count', () => {
    expect(() => checkTokenCount('f', 'candidate', 10, 10)).not.toThrow()
    const error = thrown(() => checkTokenCount('f', 'candidate', 11, 10, 'for ROUGE-L'))
    expect(error.message).toBe('f: Expected `candidate` to be at most 10 tokens long for ROUGE-L (raise options.maxTokens to allow more), got `{"tokens":11}` (Object)')
    expect(error.argument).toBe('candidate')
  })

  it('has defaults that keep the quadratic LCS well below the linear limit', () => {
    expect(DEFAULT_MAX_LCS_TOKENS).toBe(50_000)
    expect(DEFAULT_MAX_TOKENS).toBe(1_000_000)
  })
})

describe('each metric applies maxTokens', () => {
  const long = words(60)
  const short = words(5)

  it('rougeScore: counts ROUGE tokens per text; LCS types say so; the limit can be raised', () => {
    const error = thrown(() => rougeScore(long, short, { maxTokens: 50 }))
    expect(error.message).toContain('rougeScore: Expected `candidate` to be at most 50 tokens long for ROUGE-L')
    expect(error.message).toContain('options.maxTokens')
    const ref = thrown(() => rougeScore(short, [short, long], { types: ['rouge1'], maxTokens: 50 }))
    expect(ref.message).toContain('Expected `references[1]` to be at most 50 tokens long (raise options.maxTokens')
    // "a-b-c" is one word but three ROUGE tokens
    expect(() => rougeScore('a-b-c', 'a', { maxTokens: 2 })).toThrow(/at most 2 tokens/)
    expect(rougeScore(long, short, { maxTokens: 60 }).rougeL?.value).toBeGreaterThan(0)
    expect(rougeScore(long, short, { maxTokens: Number.POSITIVE_INFINITY }).rougeL?.value).toBeGreaterThan(0)
  })

  it('rougeScore: ROUGE-L is refused by default past 50,000 tokens, ROUGE-1 is not', () => {
    const big = words(DEFAULT_MAX_LCS_TOKENS + 1)
    expect(() => rougeScore(big, 'word1')).toThrow(/at most 50000 tokens long for ROUGE-L/)
    expect(() => rougeScore('word1', big, { types: ['rougeLsum'] })).toThrow(/`references` to be at most 50000 tokens long for ROUGE-Lsum/)
    expect(rougeScore(big, 'word1', { types: ['rouge1'] }).rouge1?.details.candidateCount).toBe(DEFAULT_MAX_LCS_TOKENS + 1)
  })

  it('meteorScore and singleMeteorScore: str.split() tokens, strings and token arrays', () => {
    expect(() => meteorScore(long, short, { maxTokens: 50 })).toThrow(/meteorScore: Expected `candidate` to be at most 50 tokens long/)
    expect(() => meteorScore(short, [short, long], { maxTokens: 50 })).toThrow(/`references\[1\]` to be at most 50 tokens/)
    expect(() => meteorScore(long.split(' '), [short.split(' ')], { maxTokens: 50 })).toThrow(/`candidate` to be at most 50 tokens/)
    expect(() => singleMeteorScore(short, long, { maxTokens: 59 })).toThrow(/singleMeteorScore: Expected `reference` to be at most 59 tokens/)
    expect(meteorScore(long, short, { maxTokens: 60 }).value).toBeGreaterThan(0)
    expect(() => meteorScore(long, short, { maxTokens: 0 })).toThrow(/options.maxTokens/)
  })

  it('sentenceBleu: tokenizer tokens', () => {
    expect(() => sentenceBleu(long, short, { maxTokens: 50 })).toThrow(/BLEU: Expected `each candidate and reference` to be at most 50 tokens long \(raise options.maxTokens/)
    // 13a splits the punctuation: 30 words, 60 tokens
    expect(() => sentenceBleu(words(30, 'x,'), short, { maxTokens: 50 })).toThrow(MetricInputError)
    expect(sentenceBleu(long, short, { maxTokens: 60 }).value).toBeGreaterThan(0)
  })

  it('sentenceChrf: whitespace-separated words', () => {
    expect(() => sentenceChrf(short, long, { maxTokens: 50 })).toThrow(/chrF: Expected `each candidate and reference` to be at most 50 tokens long/)
    expect(sentenceChrf(long, short, { maxTokens: 60 }).value).toBeGreaterThan(0)
  })

  it('numericConsistency: words and number mentions', () => {
    expect(() => numericConsistency(long, 'it is 5', { maxTokens: 50 })).toThrow(/numericConsistency: Expected `candidate` to be at most 50 tokens long/)
    const numbers = Array.from({ length: 12 }, (_, i) => `item ${i + 1}`).join(', ')
    const error = thrown(() => numericConsistency(numbers, 'it is 5', { maxNumbers: 10 }))
    expect(error.message).toBe(
      'numericConsistency: Expected `candidate` to be a text with at most 10 numbers (pairing them is quadratic; raise options.maxNumbers to allow more), got `{"numbers":12}` (Object)',
    )
    expect(numericConsistency(numbers, 'it is 5', { maxNumbers: 12 }).value).toBeGreaterThanOrEqual(0)
    expect(() => numericConsistency('1', '1', { maxNumbers: -3 })).toThrow(/options.maxNumbers/)
  })
})
