/** Pieces the eval-set forms of the matchers share (the message pieces are in message.ts). */
import type { FailedCase, FailedCasesMode, PartialSetOutcome } from './message.js'

/** The per-case fields of a set result over answers: each scored case by id, the failed cases, and how many cases the mean is over. */
export function answerCases(
  perCase: ReadonlyArray<{ readonly id: string; readonly value: number }>,
  failed: readonly FailedCase[],
  total: number,
  mode: FailedCasesMode,
  scored: number,
): Pick<PartialSetOutcome, 'perCase' | 'failed' | 'total' | 'mode' | 'what' | 'scored'> {
  return { perCase: perCase.map(({ id, value }) => ({ id, value })), failed, total, mode, what: 'answer', scored }
}
