/**
 * Terminal-safe user text: the one function every printed surface (the reporters' terminal table, the
 * matchers' failure messages) passes user-provided strings through, so a case id, a set or test name, a
 * metric label, an error message or a judge's reason cannot move the cursor, clear the screen, recolour
 * the log, reorder what follows, or start a line of its own (a forged `## ✅ All checks passed` in a CI
 * log). Every character that does any of that is shown as a visible escape instead:
 *
 * - C0 controls: `\n`, `\r`, `\t`, `\b`, `\f`, `\v`, `\0`, ESC as `\x1b`, others as `\xNN`;
 * - DEL and the C1 controls U+0080–U+009F (CSI U+009B starts an escape sequence on its own) as `\xNN`;
 * - the line and paragraph separators U+2028/U+2029 and the bidi embeddings, overrides and isolates
 *   U+202A–U+202E, U+2066–U+2069 (which can make a line read backwards) as `\u202e`.
 *
 * Everything else (accents, CJK, emoji, `—`, `≥`) is kept as it is. rag-report.md and rag-report.html
 * have their own escaping (Markdown cells, HTML entities); rag-report.json keeps the raw text.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
// eslint-disable-next-line no-control-regex
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
// eslint-disable-next-line no-control-regex
const ANY_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' }

function visible(ch: string): string {
  const named = NAMED[ch]
  if (named !== undefined) return named
  const code = ch.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** Does `text` hold a character {@link terminalSafe} would escape? */
export function hasUnsafe(text: string): boolean {
  return ANY_UNSAFE.test(text)
}

/**
 * User text for a terminal, on one line: every control, line-breaking and bidi character as a visible
 * escape. Its output holds none of them, so applying it twice changes nothing; a backslash already in the
 * text is kept as it is.
 *
 * @example
 * terminalSafe('q1\u001b[2J\n## ✅ All checks passed') // 'q1\\x1b[2J\\n## ✅ All checks passed'
 */
export function terminalSafe(text: string): string {
  return String(text).replace(UNSAFE, visible)
}

/**
 * A multi-line text we composed (a failure message section) whose lines may hold user text: line feeds
 * stay (they are our own layout), every other control, bidi and separator character is escaped, except
 * the exact escape sequences in `keep` (the runner's own colour codes, which it added around numbers).
 * A line feed inside user text is NOT escaped here: the user text must have been passed through
 * {@link terminalSafe} where it was put into the section.
 *
 * @example
 * terminalSafeLines('a\r\nb', []) // 'a\\r\nb'
 */
export function terminalSafeLines(text: string, keep: readonly string[] = []): string {
  return escapeKeeping(text, keep, UNSAFE_BUT_NEWLINE)
}

/**
 * A one-line text we composed (a failure message's headline) that may hold user text anywhere: every
 * control, bidi and separator character is escaped, line feeds included, so whatever was interpolated
 * into it cannot start a line; only the exact escape sequences in `keep` (the runner's colours) stay.
 *
 * @example
 * terminalSafeLine('Baseline "qa\n## ok"', []) // 'Baseline "qa\\n## ok"'
 */
export function terminalSafeLine(text: string, keep: readonly string[] = []): string {
  return escapeKeeping(text, keep, UNSAFE)
}

function escapeKeeping(text: string, keep: readonly string[], unsafe: RegExp): string {
  const codes = keep.filter((k) => k !== '')
  if (codes.length === 0) return text.replace(unsafe, visible)
  let out = ''
  let i = 0
  while (i < text.length) {
    if (text.charCodeAt(i) === 0x1b) {
      const code = codes.find((k) => text.startsWith(k, i))
      if (code !== undefined) {
        out += code
        i += code.length
        continue
      }
    }
    out += (text[i] as string).replace(unsafe, visible)
    i += 1
  }
  return out
}
