// Adversarial text for every printed surface (issue #27): strings that try to start a line of their own,
// move the cursor or reorder what follows, and the one check every printed text must pass. Shared by the
// property suites of the failure messages (injection.property.test.ts) and of the reports
// (surfaces.property.test.ts), under Vitest and Jest.
import fc from 'fast-check'

/**
 * What a forged line would start with: `## ✅ All checks passed` in a CI log. Every generated breaker is
 * followed by it, so a breaker printed raw leaves a line that starts with it, which {@link printedProblem} finds.
 */
export const FORGED = 'FORGED ## ✅ All checks passed'

/**
 * Characters that end a line, move the cursor or reorder text in a terminal (or in a CI log viewer):
 * LF, CR, CRLF, VT, FF, NEL (C1), the Unicode line and paragraph separators, ESC sequences (clear
 * screen, cursor home, the OSC title, ESC E, which is NEL), a lone C1 CSI, a bidi override and an isolate, a tab.
 */
export const BREAKERS: readonly string[] = [
  '\n',
  '\r',
  '\r\n',
  '\u000b',
  '\u000c',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u001b[2J\u001b[H',
  '\u001bE',
  '\u001b]0;title\u0007',
  '\u009b2J',
  '\u202e',
  '\u2066',
  '\t',
  '\u0000',
]

/** How a string is made hostile: a breaker and the forged line after the original text, or instead of it. */
export type Injection = (original: string) => string

/**
 * A breaker, line feeds most often: the message layout keeps line feeds (and escapes every other control
 * character itself), so a line feed is the one a forgotten escape lets through.
 */
const breaker: fc.Arbitrary<string> = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('\n', '\r\n') }, { weight: 3, arbitrary: fc.constantFrom(...BREAKERS) })

export const injection: fc.Arbitrary<Injection> = fc.tuple(breaker, fc.constantFrom('suffix', 'replace', 'both')).map(([breaker, how]) => {
  // `§` before each breaker: a breaker escaped, dropped or replaced by a space (a one-line rendering) leaves
  // FORGED after `§` on the same line, so only a raw line break can leave a line that starts with FORGED
  const cut = `§${breaker}${FORGED}`
  const f = (s: string): string => (how === 'suffix' ? `${s}${cut}` : how === 'replace' ? cut : `${cut}${s}${cut}`)
  // fast-check prints the counterexample: say what the function does
  return Object.assign(f, { toString: () => `inject(${JSON.stringify(breaker)}, ${how})` })
})

// Any control, C1, separator or bidi character but the line feeds of the layout.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/**
 * Why `text` is not safe to print in a terminal, or `undefined`: a raw control, C1, separator or bidi
 * character (the line feeds of the text's own layout apart), or a line that starts (after its indentation)
 * with the forged text, which only a raw line break inside user text can produce: the injection puts `§`
 * and a breaker before FORGED, so an escaped or flattened breaker leaves FORGED after `§` on its line. With
 * `lineFeeds: false` (a one-line text), a line feed is a problem too.
 */
export function printedProblem(text: string, { lineFeeds = true }: { lineFeeds?: boolean } = {}): string | undefined {
  const bad = UNSAFE.exec(text)
  if (bad !== null) return `a raw ${JSON.stringify(bad[0])} at ${bad.index}: …${JSON.stringify(text.slice(Math.max(0, bad.index - 60), bad.index + 40))}…`
  if (!lineFeeds && text.includes('\n')) return `a raw line feed in one-line text: ${JSON.stringify(text.slice(0, 200))}`
  const lines = text.split('\n')
  const forged = lines.findIndex((line) => line.trimStart().startsWith(FORGED))
  if (forged >= 0) return `line ${forged + 1} starts with user text after a raw line break: ${JSON.stringify(lines.slice(Math.max(0, forged - 1), forged + 1))}`
  return undefined
}

/** Throws, naming `where`, when `text` is not safe to print. */
export function assertPrintable(where: string, text: string, options?: { lineFeeds?: boolean }): void {
  const problem = printedProblem(text, options)
  if (problem !== undefined) throw new Error(`${where}: ${problem}`)
}

/** Whether user text reached `text` at all (escaped), so a check that finds nothing has met something. */
export function reached(text: string): boolean {
  return text.includes(FORGED)
}
