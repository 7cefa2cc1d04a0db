/**
 * The progress bar of `rag-matchers testset generate`: one line on a terminal's stderr, redrawn in place.
 * Only drawn when a person watches (the caller decides, shouldShowProgress); a pipe or a log gets nothing,
 * so a redirected stderr holds errors only.
 */
import type { TestsetProgress } from '../src/testset/public.js'

/** Characters of the bar itself. */
const WIDTH = 24
/** Between two redraws: often enough to see it move, rarely enough not to flood a slow terminal. */
const REDRAW_MS = 100

/**
 * One line: the bar fills with the replies back of the questions asked so far (a round of
 * replacements asks more, so the bar can step back), then the counts.
 * @example formatTestsetProgress({ asked: 20, answered: 5, kept: 3, wanted: 20 }) // 'testset [######------------------] replies 5/20, kept 3 of 20 wanted'
 */
export function formatTestsetProgress(p: TestsetProgress): string {
  const filled = p.asked === 0 ? 0 : Math.round((WIDTH * p.answered) / p.asked)
  return `testset [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] replies ${p.answered}/${p.asked}, kept ${p.kept} of ${p.wanted} wanted`
}

/**
 * A bar on `stream` (a terminal): `draw` for each snapshot (throttled, except when every reply asked
 * for is back), `end` clears the line, so the summary printed next starts on a clean line.
 */
export function progressBar(stream: { write(text: string): unknown }, now: () => number = Date.now): { draw: (p: TestsetProgress) => void; end: () => void } {
  let last: number | undefined
  let drawn = false
  return {
    draw(p) {
      const t = now()
      if (p.answered < p.asked && last !== undefined && t - last < REDRAW_MS) return
      last = t
      drawn = true
      // \r returns to the line's start; \x1b[K clears what a longer previous line left behind
      stream.write(`\r${formatTestsetProgress(p)}\x1b[K`)
    },
    end() {
      if (drawn) stream.write('\r\x1b[K')
      drawn = false
    },
  }
}
