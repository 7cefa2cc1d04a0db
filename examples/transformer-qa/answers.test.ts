// Answer quality of the example pipeline: lexical metrics per answer and for the set, and the
// numeric check that catches what lexical metrics wave through.
import { loadRecordedAnswers, runExample } from './pipeline.js'

const cases = runExample()
const correct = cases.filter((c) => c.id !== 'bleu-en-de')
// The wrong answer always comes from the committed recording, also under --live (a live model may
// well answer 28.4): it is the fixed example of what lexical metrics cannot see.
const recorded = cases.find((c) => c.id === 'bleu-en-de')!
const wrong = { ...recorded, answer: loadRecordedAnswers()['bleu-en-de']! }

describe('answers on the transformer-qa eval set', () => {
  it.each(correct.map((c) => [c.id, c] as const))('%s: lexical overlap with the reference', (_id, c) => {
    expect(c.answer).toScoreBleuAbove(c.reference, 15)
    expect(c.answer).toScoreRougeLAbove(c.reference, 0.45)
    expect(c.answer).toScoreMeteorAbove(c.reference, 0.4)
  })

  it.each(correct.map((c) => [c.id, c] as const))('%s: states the numbers of the reference', (_id, c) => {
    expect(c.answer).toStateNumbersOf(c.reference)
  })

  it('set level: corpus BLEU and chrF, mean ROUGE-L and METEOR', () => {
    expect(cases).toScoreBleuAbove(40)
    expect(cases).toScoreChrfAbove(60)
    expect(cases).toScoreRougeLAbove(0.6)
    expect(cases).toScoreMeteorAbove(0.6)
  })
})

describe('the wrong-number answer (41.0, the English-French score, for the English-German question)', () => {
  it('passes every lexical threshold the correct answers pass', () => {
    expect(wrong.answer).toScoreBleuAbove(wrong.reference, 15)
    expect(wrong.answer).toScoreRougeLAbove(wrong.reference, 0.45)
    expect(wrong.answer).toScoreMeteorAbove(wrong.reference, 0.4)
  })

  it('is caught by the numeric check (expected failure, asserted with .not)', () => {
    expect(wrong.answer).not.toStateNumbersOf(wrong.reference)
  })

  it('makes the set-level numeric check fail, naming the case', () => {
    expect(cases.map((c) => (c.id === wrong.id ? wrong : c))).not.toStateNumbersOf()
  })
})
