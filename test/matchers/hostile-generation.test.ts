// Runs under Vitest AND Jest (globals only). Issue #27's reproductions for the answer-quality
// matchers: a reference that is blank after tokenising, holes in a references array, ROUGE-Lsum's
// line count, TER's length and chrF's documented ranges fail with a message that says why, with or
// without `.not`, instead of passing silently, crashing or blocking the run.
import { failureOf } from '../helpers/failure.js'

type Run = (to: (received: unknown) => any) => unknown
const both = (run: Run): string[] => [failureOf(() => run((r) => expect(r))), failureOf(() => run((r) => expect(r).not))]

/** Fails both ways with a Matcher error whose text matches every pattern. */
function refusedBothWays(run: Run, ...patterns: RegExp[]): void {
  for (const message of both(run)) {
    expect(message).toContain('Matcher error:')
    for (const pattern of patterns) expect(message).toMatch(pattern)
    expect(message).not.toContain('NaN')
  }
}

const SCRIPTS: ReadonlyArray<readonly [string, string]> = [
  ['CJK', '東京は日本の首都です'],
  ['Greek', 'Η Αθήνα είναι η πρωτεύουσα της Ελλάδας'],
  ['Arabic', 'القاهرة هي عاصمة مصر'],
  ['emoji', '🎉 🚀 👍'],
  ['zero-width space', '\u200b'],
  ['U+3164 Hangul filler', '\u3164'],
  ['punctuation', '. , ! ? ;'],
]
const INVISIBLE: ReadonlyArray<readonly [string, string]> = [
  ['zero-width space', '\u200b'],
  ['U+3164 Hangul filler', '\u3164'],
  ['zero-width joiners and a filler', '\u200d\u3164 \u2060'],
]

describe('a reference blank after tokenising is a Matcher error, with or without .not', () => {
  it('the issue: ROUGE-L on a Japanese reference is refused, not "0 of 0 reference units matched"', () => {
    const text = '東京は日本の首都です'
    const [plain, negated] = both((to) => to(text).toScoreRougeLAbove(text, 0.3))
    for (const message of [plain, negated]) {
      expect(message).toContain('Matcher error:')
      expect(message).toContain("the reference has no tokens under ROUGE's tokenizer")
      expect(message).toContain(
        "rouge-score's tokenizer keeps only a-z and 0-9; for CJK/Greek/Arabic text (or emoji) use toScoreChrfAbove or toScoreBleuAbove with tokenize: 'intl'/'zh'",
      )
      expect(message).not.toContain('0 of 0 reference units matched')
    }
  })

  it.each(SCRIPTS)('ROUGE (every type) refuses a %s reference', (_name, text) => {
    for (const type of ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const) {
      refusedBothWays((to) => to(text).toScoreRougeAbove(text, 0.3, { type }), /the reference has no tokens under ROUGE's tokenizer/, /keeps only a-z and 0-9/)
    }
    refusedBothWays((to) => to('Tokyo is the capital').toScoreRougeLAbove(['Tokyo', text], 0.3), /references\[1\] has no tokens under ROUGE's tokenizer/)
  })

  it.each(INVISIBLE)('BLEU (every tokenizer), chrF and METEOR refuse a reference of only invisible characters: %s', (_name, text) => {
    for (const tokenize of ['13a', 'intl', 'char', 'none', 'zh'] as const) {
      refusedBothWays(
        (to) => to(text).toScoreBleuAbove(text, 10, { tokenize }),
        new RegExp(`the reference has no tokens under BLEU's tokenizer \\(sacrebleu's '${tokenize}' tokenizer\\)`),
        /invisible characters in it: U\+/,
      )
    }
    refusedBothWays((to) => to(text).toScoreChrfAbove(text, 10), /the reference has no tokens under chrF's tokenizer/, /invisible characters in it: U\+/)
    refusedBothWays((to) => to(text).toScoreChrfAbove(text, 10, { keepWhitespace: true }), /no tokens under chrF's tokenizer/)
    refusedBothWays(
      (to) => to(text).toScoreMeteorAbove(text, 0.5),
      /the reference has no tokens under METEOR's tokenizer \(NLTK's str.split\(\)/,
      /invisible characters in it: U\+/,
    )
    refusedBothWays((to) => to(text).toScoreTerBelow(text, 30), /the reference has no tokens under TER's tokenizer/)
  })

  it('names the invisible code points it found', () => {
    const message = failureOf(() => expect('a').toScoreMeteorAbove('\u200b\u3164', 0.5))
    expect(message).toContain('so a score against it is 0 whatever the answer says; invisible characters in it: U+200B, U+3164. Hint:')
  })

  it('TER with noPunct refuses a punctuation-only reference and says which option removed it', () => {
    const text = '. , ! ? ( )'
    refusedBothWays(
      (to) => to(text).toScoreTerBelow(text, 30, { noPunct: true }),
      /the reference has no tokens under TER's tokenizer \(the Tercom tokenizer with noPunct\)/,
      /drop noPunct or fix the reference/,
    )
    refusedBothWays(
      (to) => to('ok').toScoreTerBelow(['ok', '「。」'], 30, { noPunct: true, asianSupport: true }),
      /references\[1\] has no tokens/,
      /CJK\/full-width punctuation/,
    )
    // without noPunct the punctuation is a word: scored, identical answer at 0
    expect(text).toScoreTerBelow(text, 0)
  })

  it('refuses a blank reference in an eval set, naming the case, for every matcher', () => {
    const set = [
      { id: 'ok', answer: 'Paris is the capital of France', reference: 'Paris is the capital of France' },
      { id: 'tokyo', answer: '東京は日本の首都です', reference: '東京は日本の首都です' },
    ]
    refusedBothWays((to) => to(set).toScoreRougeLAbove(0.3), /received\[1\]\.reference \(case tokyo\) has no tokens under ROUGE's tokenizer/)
    refusedBothWays((to) => to(set).toScoreRougeAbove(0.3, { type: 'rouge1', failedCases: 'skip' }), /received\[1\]\.reference \(case tokyo\) has no tokens/)
    const invisible = [set[0], { id: 'zw', answer: 'x', references: ['fine', '\u200b'] }]
    refusedBothWays((to) => to(invisible).toScoreBleuAbove(10), /received\[1\]\.references\[1\] \(case zw\) has no tokens under BLEU's tokenizer/)
    refusedBothWays((to) => to(invisible).toScoreChrfAbove(10), /received\[1\]\.references\[1\] \(case zw\) has no tokens under chrF's tokenizer/)
    refusedBothWays((to) => to(invisible).toScoreMeteorAbove(0.5), /received\[1\]\.references\[1\] \(case zw\) has no tokens under METEOR's tokenizer/)
    refusedBothWays((to) => to(invisible).toScoreTerBelow(30), /received\[1\]\.references\[1\] \(case zw\) has no tokens under TER's tokenizer/)
    const punct = [set[0], { id: 'p', answer: 'x', reference: '?!' }]
    refusedBothWays((to) => to(punct).toScoreTerBelow(30, { noPunct: true }), /received\[1\]\.reference \(case p\) has no tokens under TER's tokenizer/)
  })

  it('the metrics whose tokenizer keeps the script still score it: an identical answer passes and .not fails', () => {
    for (const [, text] of SCRIPTS.filter(([name]) => !/zero-width|3164/.test(name))) {
      expect(text).toScoreChrfAbove(text, 99)
      expect(text).toScoreBleuAbove(text, 99, { tokenize: 'char' })
      expect(text).toScoreMeteorAbove(text, 0.4)
      expect(text).toScoreTerBelow(text, 0)
      const message = failureOf(() => expect(text).not.toScoreChrfAbove(text, 99))
      expect(message).not.toContain('Matcher error:')
      expect(message).toContain('chrF2 = 100.00')
    }
    expect('東京は日本の首都です').toScoreBleuAbove('東京は日本の首都です', 99, { tokenize: 'zh' })
    // a reference with one Latin token is not blank for ROUGE
    expect('東京 Tokyo').toScoreRougeLAbove('東京 Tokyo', 0.99)
  })

  it('whitespace-only references keep their message (Python whitespace included)', () => {
    refusedBothWays((to) => to('a').toScoreRougeLAbove('\u001c \u3000', 0.3), /the reference is empty or whitespace only/)
    refusedBothWays((to) => to('a').toScoreBleuAbove(['a', '\u00a0'], 10), /references\[1\] is empty or whitespace only/)
  })
})

describe('holes in a references array are a Matcher error naming the position', () => {
  // eslint-disable-next-line no-sparse-arrays
  const sparse = ['Paris is the capital', , 'Paris'] as unknown as string[]

  it('answer form, every matcher, with or without .not', () => {
    const hole = /references\[1\] is a hole \(an empty slot in a sparse array\); every reference must be a string/
    refusedBothWays((to) => to('Paris').toScoreRougeLAbove(sparse, 0.3), hole)
    refusedBothWays((to) => to('Paris').toScoreRougeAbove(sparse, 0.3, { type: 'rouge1' }), hole)
    refusedBothWays((to) => to('Paris').toScoreMeteorAbove(sparse, 0.3), hole)
    refusedBothWays((to) => to('Paris').toScoreBleuAbove(sparse, 10), hole)
    refusedBothWays((to) => to('Paris').toScoreChrfAbove(sparse, 10), hole)
    refusedBothWays((to) => to('Paris').toScoreTerBelow(sparse, 30), hole)
    for (const message of both((to) => to('Paris').toScoreRougeLAbove(sparse, 0.3))) {
      expect(message).not.toMatch(/TypeError|fmeasure|reading 'length'/)
    }
  })

  it('eval-set form: a case whose references have a hole', () => {
    const set = [{ id: 'q1', answer: 'Paris', references: sparse }]
    const hole = /case q1 \(received\[0\]\): references\[1\] is a hole \(an empty slot in a sparse array\)|received\[0\]\.references\[1\] is a hole/
    refusedBothWays((to) => to(set).toScoreRougeLAbove(0.3), hole)
    refusedBothWays((to) => to(set).toScoreMeteorAbove(0.3), hole)
    refusedBothWays((to) => to(set).toScoreBleuAbove(10), hole)
    refusedBothWays((to) => to(set).toScoreTerBelow(30), hole)
  })
})

describe('bounded cost: refused up front, naming the option that lifts the limit', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i % 7}`).join('\n')

  it('ROUGE-Lsum refuses more than maxLines lines (default 2000), with or without .not', () => {
    const many = lines(2_001)
    const started = Date.now()
    refusedBothWays(
      (to) => to(many).toScoreRougeAbove('line 1', 0.1, { type: 'rougeLsum' }),
      /Expected `candidate` to be a text with at most 2000 lines \(ROUGE-Lsum aligns every candidate line with every reference line; raise options.maxLines to allow more\)/,
    )
    refusedBothWays(
      (to) => to('line 1').toScoreRougeAbove(['line 1', lines(4)], 0.1, { type: 'rougeLsum', maxLines: 3 }),
      /`references\[1\]` to be a text with at most 3 lines/,
    )
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(lines(4)).toScoreRougeAbove(lines(4), 0.99, { type: 'rougeLsum', maxLines: 4 })
    // ROUGE-L has no line limit: the lines are one token sequence
    expect(many).toScoreRougeAbove(many, 0.99, { type: 'rougeL' })
  })

  it('refuses a bad maxLines like any limit option', () => {
    refusedBothWays((to) => to('a').toScoreRougeAbove('a', 0.1, { type: 'rougeLsum', maxLines: 0 }), /options.maxLines must be a positive integer or Infinity/)
  })

  it('TER takes maxTokens (default 5000) and refuses longer input before aligning', () => {
    const long = Array.from({ length: 5_001 }, (_, i) => `w${i % 50}`).join(' ')
    const started = Date.now()
    refusedBothWays(
      (to) => to(long).toScoreTerBelow('w1 w2', 30),
      /TER: Expected `each candidate and reference` to be at most 5000 tokens long for TER, whose edit matrices have \(\|candidate\|\+1\)·\(\|reference\|\+1\) cells \(raise options.maxTokens to allow more\)/,
    )
    refusedBothWays((to) => to('w1 w2').toScoreTerBelow(['w1', long], 30), /at most 5000 tokens long for TER/)
    refusedBothWays((to) => to([{ answer: 'a b c', reference: 'a b c d' }]).toScoreTerBelow(30, { maxTokens: 3 }), /at most 3 tokens long for TER/)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect('a b c').toScoreTerBelow('a b c', 0, { maxTokens: 3 })
    expect('a b c').toScoreTerBelow('a b c', 0, { maxTokens: Number.POSITIVE_INFINITY })
    refusedBothWays((to) => to('a').toScoreTerBelow('a', 0, { maxTokens: -1 }), /options.maxTokens must be a positive integer or Infinity/)
  })
})

describe('chrF options out of their documented range are refused', () => {
  it('beta must be positive and wordOrder 0–2', () => {
    refusedBothWays((to) => to('a b').toScoreChrfAbove('a b', 10, { beta: 0 }), /options.beta must be a positive number/)
    refusedBothWays((to) => to('a b').toScoreChrfAbove('a b', 10, { beta: -1 }), /options.beta must be a positive number/)
    refusedBothWays((to) => to('a b').toScoreChrfAbove('a b', 10, { wordOrder: 3 }), /options.wordOrder must be an integer 0–2/)
    refusedBothWays((to) => to([{ answer: 'a', reference: 'a' }]).toScoreChrfAbove(10, { wordOrder: -1 }), /options.wordOrder must be an integer 0–2/)
    expect('a b').toScoreChrfAbove('a b', 99, { beta: 0.5, wordOrder: 2 })
  })
})
