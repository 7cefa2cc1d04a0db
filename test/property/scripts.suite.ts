// Registry-driven property (issue #27): every generation matcher (family 'generation' in the registry, so a new
// one is covered), one answer and eval-set forms, with and without `.not`, on texts in several scripts (CJK,
// Thai, Arabic, Hebrew, Greek, Devanagari, Latin, emoji, combining marks) and invisible characters (ZWSP, ZWJ,
// U+3164, BOM, soft hyphen, word joiner, bidi marks and controls). Two rules:
// - the one rule (harness.ts checkPair): a pass, a failure with a finite value, or a Matcher error in both
//   directions; `.not` passes only where the positive form fails with a finite value; and the message is
//   printable (no raw bidi control, printed.ts);
// - an answer identical to its reference is never scored as dissimilar: at a low bar (a tenth of the scale;
//   TER at most half of it) the positive form passes or the input is refused both ways. `0 of 0 reference
//   units matched` for a reference the tokenizer drops let `.not` pass on identical text.
// Run by test/property/scripts.property.test.ts (Vitest) and test/jest/property-registry.test.ts (Jest).
import fc from 'fast-check'
import { declaredScale, type MatcherDeclaration } from '../../matchers/declare.js'
import { checkPair, runSync, type MatcherName, type Outcome } from './harness.js'
import { assertPrintable } from './printed.js'
import { registry, type SuiteOptions } from './seeds.js'

/** Words by script; each is one token for a whitespace tokenizer, several or none for others. */
export const SCRIPT_WORDS: Readonly<Record<string, readonly string[]>> = {
  cjk: ['東京', '日本', 'の首都', 'です', '中文', '한국어', '。'],
  thai: ['กรุงเทพ', 'เป็น', 'เมืองหลวง'],
  arabic: ['القاهرة', 'عاصمة', 'مصر', '٣'],
  hebrew: ['ירושלים', 'בירת', 'ישראל'],
  greek: ['Αθήνα', 'πρωτεύουσα', 'Ελλάδας'],
  devanagari: ['दिल्ली', 'भारत', 'राजधानी', '१२'],
  latin: ['Paris', 'is', 'the', 'capital', '42', '3.5'],
  emoji: ['🙂', '👍🏽', '👨‍👩‍👧', '🇫🇷'],
  combining: ['e\u0301', 'a\u0308b', 'n\u0303o', '\u0301'],
}

/** Characters that print as nothing (or reorder text): ZWSP, ZWJ, ZWNJ, Hangul filler, BOM, soft hyphen, word joiner, LRM/RLM, bidi controls. */
export const INVISIBLE: readonly string[] = ['\u200b', '\u200d', '\u200c', '\u3164', '\ufeff', '\u00ad', '\u2060', '\u200e', '\u200f', '\u202e', '\u2066', '\u2069']

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...Object.values(SCRIPT_WORDS).flat()) },
  { weight: 2, arbitrary: fc.constantFrom(...INVISIBLE) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 3 }).map((cs) => cs.join('')) },
)

/** A text of 0–8 words in mixed scripts, joined by a space, nothing, a ZWSP or an ideographic space. */
export const scriptText: fc.Arbitrary<string> = fc.tuple(fc.array(word, { maxLength: 8 }), fc.constantFrom(' ', '', '\u200b', '\u3000')).map(([words, sep]) => words.join(sep))

/** A text in one script only (a reference the metric's tokenizer may drop whole), or invisible characters only. */
export const oneScriptText: fc.Arbitrary<string> = fc.oneof(
  fc
    .constantFrom(...Object.keys(SCRIPT_WORDS))
    .chain((script) => fc.array(fc.constantFrom(...(SCRIPT_WORDS[script] as readonly string[])), { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '))),
  fc.array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 4 }).map((cs) => cs.join('')),
)

const anyText = fc.oneof(scriptText, oneScriptText)

/**
 * Texts for the identity rule: 4–8 space-separated words (corpus BLEU-4 of fewer than 4 tokens is 0 even for an
 * identical answer, as in sacrebleu, which is the metric and not the input), in one script or mixed, or
 * invisible characters only.
 */
const identityText: fc.Arbitrary<string> = fc.oneof(
  fc.array(word, { minLength: 4, maxLength: 8 }).map((ws) => ws.join(' ')),
  fc
    .constantFrom(...Object.keys(SCRIPT_WORDS))
    .chain((script) => fc.array(fc.constantFrom(...(SCRIPT_WORDS[script] as readonly string[])), { minLength: 4, maxLength: 8 }).map((ws) => ws.join(' '))),
  fc.array(fc.constantFrom(...INVISIBLE), { minLength: 1, maxLength: 4 }).map((cs) => cs.join('')),
)

/** The call's shape from the declaration's own failing example: `(answer, reference, <threshold>?, …)`. */
function thresholdAt(decl: MatcherDeclaration): number {
  return (decl.failing?.args ?? []).findIndex((a) => typeof a === 'number')
}

/** A tenth of the scale for a higher-is-better metric; at most half of it for TER. */
function lowBar(decl: MatcherDeclaration): number {
  const scale = declaredScale(decl.metric)
  return decl.metric.direction === 'lower' ? scale / 2 : scale / 10
}

/** The single and eval-set calls of a generation matcher for `answer` and `reference`, with `min` as its threshold. */
function calls(decl: MatcherDeclaration, answer: string, reference: string | string[], min: number): Array<[unknown, unknown[]]> {
  const at = thresholdAt(decl)
  const single = [...(decl.failing?.args ?? [])]
  single[0] = reference
  if (at >= 0) single[at] = min
  const setArgs = at >= 0 ? [min] : []
  const references = Array.isArray(reference) ? { references: reference } : { reference }
  return [
    [answer, single],
    [[{ id: 'q1', answer, ...references }], setArgs],
  ]
}

function both(name: MatcherName, received: unknown, args: unknown[]): [Outcome, Outcome] {
  const positive = runSync(name, false, received, args)
  const negated = runSync(name, true, received, args)
  checkPair(name, positive, negated)
  assertPrintable(`${name} (${positive.kind})`, positive.message)
  assertPrintable(`${name} (.not, ${negated.kind})`, negated.message)
  return [positive, negated]
}

export function scriptsSuite(o: SuiteOptions): void {
  const generation = registry().filter((e) => e.family === 'generation')
  describe(`texts in several scripts and invisible characters, every generation matcher (seed ${o.seed})`, () => {
    it('the registry has generation matchers, each with an example to take its call shape from', () => {
      expect(generation.length).toBeGreaterThan(0)
      for (const e of generation) expect(e.decl.failing).toBeDefined()
    })
    for (const entry of generation) {
      const scale = declaredScale(entry.decl.metric)
      it(`${entry.name}: pass, finite fail or Matcher error, .not only where the positive form fails (${o.runs} runs)`, () => {
        fc.assert(
          fc.property(
            anyText,
            fc.oneof(anyText, fc.array(anyText, { minLength: 1, maxLength: 3 })),
            fc.double({ min: 0, max: scale, noNaN: true }),
            (answer, reference, min) => {
              for (const [received, args] of calls(entry.decl, answer, reference, min)) both(entry.name, received, args)
            },
          ),
          { seed: o.seed, numRuns: o.runs },
        )
      })

      it(`${entry.name}: an answer identical to its reference is never scored dissimilar; refused both ways or passes a low bar (${o.runs} runs)`, () => {
        let refused = 0
        let passed = 0
        fc.assert(
          fc.property(identityText, (text) => {
            for (const [received, args] of calls(entry.decl, text, text, lowBar(entry.decl))) {
              const [positive, negated] = both(entry.name, received, args)
              if (positive.kind === 'matcher-error' && negated.kind === 'matcher-error') refused += 1
              else if (positive.kind === 'pass') passed += 1
              else throw new Error(`${entry.name}: an identical answer ${JSON.stringify(text)} ${positive.kind}ed the low bar (.not ${negated.kind}ed): ${positive.headline}`)
            }
          }),
          { seed: o.seed, numRuns: o.runs },
        )
        // both outcomes were met: texts a tokenizer keeps, and texts it drops whole
        expect(passed).toBeGreaterThan(0)
        expect(refused).toBeGreaterThan(0)
      })
    }
  })
}
