// maxTokens / maxNumbers: every generation metric refuses oversized input up front with a
// MetricInputError naming the limit and the option, accepts it with the limit raised, and rejects
// a malformed limit.
import { MetricInputError } from '../../../src/errors.js'
import { bleuSegments, sentenceBleu } from '../../../src/generation/bleu.js'
import { sentenceChrf } from '../../../src/generation/chrf.js'
import {
  checkTokenCount,
  countWords,
  DEFAULT_MAX_LCS_TOKENS,
  DEFAULT_MAX_LSUM_LINES,
  DEFAULT_MAX_LSUM_TOKENS,
  DEFAULT_MAX_TOKENS,
  resolveMaxTokens,
} from '../../../src/generation/input-limits.js'
import { meteorScore, singleMeteorScore } from '../../../src/generation/meteor.js'
import { numericConsistency } from '../../../src/generation/numeric-consistency.js'
import { extractNumbers } from '../../../src/generation/numbers/extract-numbers.js'
import { tokenizeTercom } from '../../../src/generation/public.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { corpusTer, DEFAULT_MAX_TER_TOKENS, sentenceTer, terSegments } from '../../../src/generation/ter/ter.js'

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

describe('issue #27: the costs that grew past every limit', () => {
  const lines = (n: number, per = 1) => Array.from({ length: n }, (_, i) => Array.from({ length: per }, (_, k) => `w${(i + k) % 11}`).join(' ')).join('\n')

  it('rougeScore: ROUGE-Lsum refuses more than maxLines (2000) lines before aligning; Infinity lifts it', () => {
    expect(DEFAULT_MAX_LSUM_LINES).toBe(2_000)
    const many = lines(DEFAULT_MAX_LSUM_LINES + 1)
    const error = thrown(() => rougeScore(many, 'w1', { types: ['rougeLsum'] }))
    expect(error.message).toBe(
      'rougeScore: Expected `candidate` to be a text with at most 2000 lines (ROUGE-Lsum aligns every candidate line with every reference line; raise options.maxLines to allow more), got `{"lines":2001}` (Object)',
    )
    expect(() => rougeScore('w1', ['w1', lines(5)], { types: ['rougeLsum'], maxLines: 4 })).toThrow(/`references\[1\]` to be a text with at most 4 lines/)
    // only ROUGE-Lsum counts lines
    expect(rougeScore(many, 'w1', { types: ['rouge1', 'rougeL'] }).rougeL?.value).toBeGreaterThan(0)
    expect(rougeScore(lines(5), lines(5), { types: ['rougeLsum'], maxLines: Number.POSITIVE_INFINITY }).rougeLsum?.value).toBe(1)
    expect(() => rougeScore('a', 'a', { maxLines: 0 })).toThrow(/Expected `options.maxLines` to be a positive integer or Infinity/)
  })

  it('rougeScore: ROUGE-Lsum on texts of several lines is limited to 20,000 tokens by default (one line keeps 50,000)', () => {
    expect(DEFAULT_MAX_LSUM_TOKENS).toBe(20_000)
    const several = lines(1_000, 21)
    expect(() => rougeScore(several, 'w1', { types: ['rougeLsum'] })).toThrow(
      /`candidate` to be at most 20000 tokens long for ROUGE-Lsum on a text of several lines \(raise options.maxTokens/,
    )
    expect(() => rougeScore('w1', ['w1', several])).toThrow(/`references\[1\]` to be at most 20000 tokens long for ROUGE-Lsum on a text of several lines/)
    // one line: ROUGE-Lsum is ROUGE-L's single LCS
    expect(rougeScore(several.replaceAll('\n', ' '), 'w1', { types: ['rougeLsum'] }).rougeLsum?.details.candidateCount).toBe(21_000)
    expect(rougeScore(several, 'w1', { types: ['rougeLsum'], maxTokens: 21_000 }).rougeLsum?.details.candidateCount).toBe(21_000)
  })

  it('sentenceTer / corpusTer / terSegments: maxTokens (default 5000) before any alignment', () => {
    expect(DEFAULT_MAX_TER_TOKENS).toBe(5_000)
    const long = words(DEFAULT_MAX_TER_TOKENS + 1)
    const error = thrown(() => sentenceTer(long, 'word1'))
    expect(error.message).toBe(
      'TER: Expected `each candidate and reference` to be at most 5000 tokens long for TER, whose edit matrices have (|candidate|+1)·(|reference|+1) cells (raise options.maxTokens to allow more), got `{"tokens":5001}` (Object)',
    )
    expect(() => sentenceTer('word1', ['word1', long])).toThrow(/at most 5000 tokens long for TER/)
    expect(() => corpusTer(['a', 'word1'], [['a', long]])).toThrow(/at most 5000 tokens long for TER/)
    expect(() => terSegments(['a b c'], [['a b c d']], { maxTokens: 3 })).toThrow(/at most 3 tokens long for TER/)
    // normalized splits punctuation: 3 characters, 3 tokens
    expect(() => sentenceTer('a', 'a,b', { normalized: true, maxTokens: 2 })).toThrow(/at most 2 tokens long for TER/)
    expect(sentenceTer('a b c', 'a b c', { maxTokens: 3 }).score).toBe(0)
    expect(sentenceTer(long, 'word1', { maxTokens: Number.POSITIVE_INFINITY }).numEdits).toBe(DEFAULT_MAX_TER_TOKENS)
    expect(() => sentenceTer('a', 'a', { maxTokens: 1.5 })).toThrow(/Expected `options.maxTokens` to be a positive integer or Infinity/)
    // the tokenizer takes TER's options, maxTokens included, and ignores the limit
    expect(tokenizeTercom('A, b', { normalized: true, maxTokens: 1 })).toBe('a , b')
  })

  it('numericConsistency: a reference number beyond a double is refused, not read as no number', () => {
    const error = thrown(() => numericConsistency('The ratio is 5.', 'The ratio is 1e400.'))
    expect(error.message).toBe(
      'numericConsistency: Expected `reference` to be a text whose numbers are within the range of a double (magnitude below 1.8e308); "1e400" is out of range and cannot be compared, got `"The ratio is 1e400."` (string)',
    )
    expect(() => numericConsistency('x', `It has ${'9'.repeat(400)} parts.`)).toThrow(/is out of range and cannot be compared/)
    // extractNumbers keeps its documented behaviour (left out), and so does an answer's number
    expect(extractNumbers('The ratio is 1e400.')).toEqual([])
    expect(numericConsistency('The ratio is 1e400.', 'The ratio is 5.').value).toBe(0)
  })
})

describe('issue #27: holes in a references array are refused by position, never a TypeError', () => {
  // eslint-disable-next-line no-sparse-arrays
  const sparse = ['a b', , 'c'] as unknown as string[]
  it.each([
    ['rougeScore', () => rougeScore('a', sparse)],
    ['meteorScore', () => meteorScore('a', sparse)],
    ['sentenceBleu', () => sentenceBleu('a', sparse)],
    ['sentenceChrf', () => sentenceChrf('a', sparse)],
    ['sentenceTer', () => sentenceTer('a', sparse)],
    ['bleuSegments', () => bleuSegments(['a'], [sparse])],
  ] as const)('%s', (fn, run) => {
    const error = thrown(run)
    expect(error.message).toMatch(
      new RegExp(`^${fn}: Expected \`references\\[(0\\]\\[)?1\\]\` to be a string( or an array of token strings)?, got a hole \\(an empty slot in a sparse array\\)$`),
    )
  })
})
