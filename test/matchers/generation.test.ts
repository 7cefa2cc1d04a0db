// Runs under Vitest AND Jest (globals only).
import { failureOf } from '../helpers/failure.js'

const reference = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const wrong = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
const unrelated = 'Positional encodings use sine and cosine functions.'
const evalSet = [
  { id: 'bleu-en-de', answer: wrong, reference },
  { id: 'layers', answer: 'The encoder stacks N = 6 identical layers.', reference: 'The encoder is a stack of N = 6 identical layers.' },
  { id: 'off-topic', answer: unrelated, references: ['The inner layer has dimensionality d_ff = 2048.', 'It uses d_ff = 2048.'] },
]

describe('.toScoreBleuAbove', () => {
  it('passes for the wrong-number answer: BLEU cannot see the wrong number', () => {
    expect(wrong).toScoreBleuAbove(reference, 76.24)
    expect(wrong).not.toScoreBleuAbove(reference, 76.25)
    expect(wrong).toScoreBleuAbove([unrelated, reference], 76.24)
  })
  it('fails with p1..p4, BP, lengths and unmatched n-grams', () => {
    const message = failureOf(() => expect(unrelated).toScoreBleuAbove(reference, 30))
    expect(message).toContain('BLEU = ')
    expect(message).toContain('required ≥ 30.00')
    expect(message).toMatch(/signature: BLEU\|nrefs:1\|case:mixed\|eff:yes\|tok:13a\|smooth:exp\|version:/)
    expect(message).toMatch(/BP = [0-9.]+ ratio = [0-9.]+ hyp_len = \d+ ref_len = \d+/)
    expect(message).toContain('candidate n-grams found in no reference')
    expect(message).toMatchSnapshot()
  })
  it('uses corpus BLEU for an eval set', () => {
    expect(evalSet).toScoreBleuAbove(20)
    const message = failureOf(() => expect(evalSet).toScoreBleuAbove(90))
    expect(message).toContain('corpus BLEU over 3 answers')
    expect(message).toMatch(/off-topic\s+5\.52/)
  })
  it('hints when a threshold is on the 0–1 scale', () => {
    expect(() => expect(wrong).toScoreBleuAbove(reference, 0.3)).toThrow(/min is on sacrebleu's 0–100 scale, got 0.3. Did you mean 30.0\?/)
    expect(() => expect(evalSet).not.toScoreBleuAbove(0.5)).toThrow(/Matcher error: min is on sacrebleu's 0–100 scale/)
  })
})

describe('.toScoreChrfAbove', () => {
  it('passes, fails and supports chrF++', () => {
    expect(wrong).toScoreChrfAbove(reference, 88.9)
    expect(wrong).not.toScoreChrfAbove(reference, 89)
    expect(wrong).toScoreChrfAbove(reference, 80, { wordOrder: 2 })
    expect(failureOf(() => expect(unrelated).toScoreChrfAbove(reference, 50))).toMatch(/chrF2 = [0-9.]+ {3}required ≥ 50\.00/)
    expect(evalSet).toScoreChrfAbove(40)
  })
})

describe('.toScoreRougeAbove / .toScoreRougeLAbove', () => {
  it('ROUGE-L F of the wrong-number answer', () => {
    expect(wrong).toScoreRougeLAbove(reference, 0.84)
    expect(wrong).toScoreRougeAbove(reference, 0.84, { type: 'rougeL', stemmer: true })
    expect(wrong).not.toScoreRougeAbove(reference, 0.9, { type: 'rouge2' })
  })
  it('fails with P/R/F and the missed reference tokens', () => {
    const message = failureOf(() => expect(unrelated).toScoreRougeLAbove(reference, 0.5))
    expect(message).toMatch(/ROUGE-L F = 0\.0000 {3}required ≥ 0\.5000/)
    expect(message).toMatch(/P 0\.0000 {2}R 0\.0000 {2}F 0\.0000/)
    expect(message).toContain('missed reference units')
    expect(message).toMatchSnapshot()
  })
  it('uses the mean for an eval set, said so in the message', () => {
    expect(failureOf(() => expect(evalSet).toScoreRougeLAbove(0.9))).toMatch(/mean ROUGE-L F over 3 answers/)
    expect(evalSet).toScoreRougeAbove(0.5, { measure: 'recall', type: 'rouge1' })
  })
  it('rejects an unknown type or measure', () => {
    expect(() => expect(wrong).toScoreRougeAbove(reference, 0.5, { type: 'rougeX' as never })).toThrow(/options.type must be/)
    expect(() => expect(wrong).toScoreRougeAbove(reference, 0.5, { measure: 'f1' as never })).toThrow(/options.measure must be/)
  })
})

describe('.toScoreMeteorAbove', () => {
  it('METEOR of the wrong-number answer', () => {
    expect(wrong).toScoreMeteorAbove(reference, 0.87)
    expect(wrong).not.toScoreMeteorAbove(reference, 0.88)
  })
  it('fails with matches per stage, chunks, penalty and unmatched tokens', () => {
    const message = failureOf(() => expect(wrong).toScoreMeteorAbove(reference, 0.9))
    expect(message).toMatch(/METEOR = 0\.8737 {3}required ≥ 0\.9000/)
    expect(message).toMatch(/matches: \d+ exact, \d+ stem, \d+ synonym/)
    expect(message).toContain('unmatched answer tokens: "their", "41.0"')
    expect(message).toMatchSnapshot()
  })
  it('eval set mean', () => {
    expect(evalSet).not.toScoreMeteorAbove(0.9)
  })
})

describe('misuse of the generation matchers', () => {
  it.each([
    ['a non-string answer', () => expect(42).toScoreBleuAbove(reference, 30), /received value must be an answer string/],
    ['empty references', () => expect(wrong).toScoreRougeLAbove([], 0.5), /references must be a string or a non-empty array/],
    ['a non-string reference', () => expect(wrong).toScoreMeteorAbove([reference, 3] as never, 0.5), /references\[1\] must be a string/],
    ['ROUGE threshold above 1', () => expect(wrong).toScoreRougeLAbove(reference, 50), /min must be a number from 0 to 1/],
    ['BLEU threshold above 100', () => expect(wrong).toScoreBleuAbove(reference, 150), /min must be a number from 0 to 100/],
    ['a case without a reference', () => expect([{ answer: 'x' }]).toScoreBleuAbove(30), /received\[0\] must have `reference`/],
    [
      'a case whose pipeline failed',
      () => expect([{ id: 'q1', error: new Error('timeout') }]).toScoreMeteorAbove(0.5),
      /case q1 has no answer because its pipeline failed: timeout/,
    ],
  ])('%s', (_name, assertion, pattern) => {
    expect(assertion).toThrow(pattern)
  })
})
