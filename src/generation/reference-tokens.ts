/**
 * Whether a reference has any token under a metric's OWN tokenizer (issue #27).
 *
 * A reference that is blank after tokenising scores 0 against every answer (ROUGE drops everything
 * outside a–z/0–9, so CJK, Greek, Arabic and emoji text gives no tokens; TER's `noPunct` deletes a
 * punctuation-only reference), so `.not` would pass even for an identical answer. The matchers refuse
 * such a reference up front; the core functions keep computing what the reference implementations
 * compute (parity), so this module only answers "does it have a token?" with the same tokenizer.
 *
 * A token made only of default-ignorable code points (U+200B zero-width space, U+3164 Hangul filler,
 * U+FEFF, U+00AD soft hyphen, variation selectors…) renders as nothing: it counts as no token, since
 * a reference of only such tokens is an encoding artefact, not a text an answer can be compared with.
 */
import { pyLower } from '../text/python-lower.js'
import { pyIsSpaceCode, pyRstrip } from '../text/python-string.js'
import { tokensTercom, type TercomSettings } from './ter/tokenizer-tercom.js'
import { isBleuTokenizerName, type BleuTokenizerName } from './tokenizers/index.js'

/** How a matcher checks its references: the metric's tokenizer, named, and a hint for what it drops. */
export interface ReferenceTokenCheck {
  /** The metric, as messages name it: `ROUGE`, `BLEU`, `chrF`, `METEOR`, `TER`. */
  readonly metric: string
  /** The tokenizer, described: `rouge-score's default tokenizer (lower-cased a-z/0-9 runs)`. */
  readonly tokenizer: string
  /** What to do about it (which scripts the tokenizer drops, which option removed the tokens). */
  readonly hint: string
  /** Whether `text` has at least one visible token under the metric's tokenizer. */
  readonly hasToken: (text: string) => boolean
}

// invisible: default-ignorable code points and control characters (Cc)
const VISIBLE = /[^\p{Default_Ignorable_Code_Point}\p{Cc}]/u

/** Whether `token` has a character that is neither default-ignorable nor a control character (is not invisible). */
export function isVisibleToken(token: string): boolean {
  return VISIBLE.test(token)
}

/** Whether any of `tokens` is visible. */
function anyVisible(tokens: readonly string[]): boolean {
  for (const token of tokens) if (isVisibleToken(token)) return true
  return false
}

/**
 * Whether `text[0, end)` has a character that is neither Python whitespace nor invisible. For a
 * tokenizer that only inserts spaces (never deletes a visible character) this is "has a visible
 * token", found without tokenizing: the matchers then tokenize each text once, in the metric.
 */
export function hasVisibleCharacter(text: string, end = text.length): boolean {
  for (let k = 0; k < end; k++) {
    const c = text.charCodeAt(k)
    // printable ASCII: the common case, without a regex
    if (c > 0x20 && c < 0x7f) return true
    if (c < 0x80 || pyIsSpaceCode(c)) continue
    const cp = text.codePointAt(k) as number
    if (isVisibleToken(String.fromCodePoint(cp))) return true
    if (cp > 0xffff) k++
  }
  return false
}

/** The length of `text` without trailing Python whitespace (`rstrip()` without a regex). */
function rstrippedLength(text: string): number {
  let end = text.length
  while (end > 0 && pyIsSpaceCode(text.charCodeAt(end - 1))) end--
  return end
}

/**
 * The code points of `text` that are neither Python whitespace nor visible, as `U+200B, U+3164`
 * (at most `max`), for a message that says what the reference holds; '' if none.
 */
export function invisibleCodePoints(text: string, max = 5): string {
  const seen = new Set<string>()
  for (const ch of text) {
    const code = ch.codePointAt(0) as number
    if (pyIsSpaceCode(code) || isVisibleToken(ch)) continue
    seen.add(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`)
    if (seen.size >= max) break
  }
  return [...seen].join(', ')
}

const ALPHANUMERIC = /[a-z0-9]/
const ALPHANUMERIC_ANY_CASE = /[A-Za-z0-9]/

/** ROUGE (rouge-score's default tokenizer): a token is a lower-cased run of a–z/0–9; stemming never empties one. */
export const ROUGE_REFERENCE_CHECK: ReferenceTokenCheck = {
  metric: 'ROUGE',
  tokenizer: "rouge-score's default tokenizer (lower-cased runs of a-z and 0-9)",
  hint: "rouge-score's tokenizer keeps only a-z and 0-9; for CJK/Greek/Arabic text (or emoji) use toScoreChrfAbove or toScoreBleuAbove with tokenize: 'intl'/'zh'",
  // the raw test finds a token in any English-like text without lower-casing it; pyLower maps a few
  // other characters into a-z (U+212A KELVIN SIGN → k, İ → i + U+0307)
  hasToken: (text) => ALPHANUMERIC_ANY_CASE.test(text) || ALPHANUMERIC.test(pyLower(text)),
}

/**
 * BLEU: sacrebleu's `rstrip()`, then the tokenizer. Every BLEU tokenizer only inserts spaces, except
 * that 13a first deletes `<skipped>` and `-\n`; lower-casing never empties a token. So the check
 * applies those two deletions and looks for a visible character (test/src/generation/reference-tokens
 * compares it with the tokenizers' own output).
 */
export function bleuReferenceCheck(tokenize: unknown): ReferenceTokenCheck {
  const name: BleuTokenizerName = isBleuTokenizerName(tokenize) ? tokenize : '13a'
  return {
    metric: 'BLEU',
    tokenizer: `sacrebleu's '${name}' tokenizer`,
    hint: 'fix the reference: only invisible characters (zero-width spaces, fillers, format characters) or markup the tokenizer removes are left',
    hasToken: (text) => {
      const end = rstrippedLength(text)
      if (name !== '13a' || !(text.includes('<skipped>') || text.includes('-\n'))) return hasVisibleCharacter(text, end)
      return hasVisibleCharacter(text.slice(0, end).replaceAll('<skipped>', '').replaceAll('-\n', ''))
    },
  }
}

/**
 * chrF: the characters left after removing Python whitespace. With `keepWhitespace` the spaces are
 * characters too, but a reference of only whitespace and invisible characters is still blank.
 */
export function chrfReferenceCheck(keepWhitespace: unknown): ReferenceTokenCheck {
  return {
    metric: 'chrF',
    tokenizer: keepWhitespace === true ? 'chrF (every character; whitespace alone is no text)' : 'chrF (every character but whitespace)',
    hint: 'fix the reference: it holds only invisible characters (zero-width spaces, fillers, format characters)',
    hasToken: (text) => hasVisibleCharacter(text),
  }
}

/** METEOR: Python `str.split()` words. */
export const METEOR_REFERENCE_CHECK: ReferenceTokenCheck = {
  metric: 'METEOR',
  tokenizer: "NLTK's str.split() (whitespace-separated words)",
  hint: 'fix the reference: its words are only invisible characters (zero-width spaces, U+3164 Hangul filler, format characters)',
  // str.split() deletes nothing but whitespace
  hasToken: (text) => hasVisibleCharacter(text),
}

/** TER: the Tercom tokenizer under the matcher's options. */
export function terReferenceCheck(options: Partial<Record<keyof TercomSettings, unknown>> | undefined): ReferenceTokenCheck {
  const settings: TercomSettings = {
    normalized: options?.normalized === true,
    noPunct: options?.noPunct === true,
    asianSupport: options?.asianSupport === true,
    caseSensitive: options?.caseSensitive === true,
  }
  const flags = [settings.normalized ? 'normalized' : '', settings.noPunct ? 'noPunct' : '', settings.asianSupport ? 'asianSupport' : ''].filter(Boolean)
  return {
    metric: 'TER',
    tokenizer: `the Tercom tokenizer${flags.length > 0 ? ` with ${flags.join(', ')}` : ''}`,
    hint: settings.noPunct
      ? `noPunct deletes .,?:;!"()${settings.asianSupport ? ' and CJK/full-width punctuation' : ''}, so a punctuation-only reference has no words left: drop noPunct or fix the reference`
      : 'fix the reference: its words are only invisible characters (zero-width spaces, fillers, format characters)',
    // only the normaliser (`\n-`) and noPunct delete characters; otherwise lower() and the split delete none.
    // TER right-strips before the normaliser (ter.ts terTokens); the split drops trailing whitespace anyway
    hasToken: (text) =>
      settings.normalized || settings.noPunct ? anyVisible(tokensTercom(settings.normalized ? pyRstrip(text) : text, settings)) : hasVisibleCharacter(text),
  }
}
