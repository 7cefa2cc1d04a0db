/**
 * What the significance tests need from a sacrebleu-style metric, under one resolution of its
 * options: per-segment statistics, a score from summed statistics, and its signature.
 */
import type { SignatureValue } from '../../signature.js'
import type { CorpusReferences } from '../sacrebleu-args.js'
import type { StatsScorer } from './bootstrap.js'

export interface SignificanceKernel {
  /** The metric's name as sacrebleu prints it (`BLEU`, `chrF2`, `chrF2++`). */
  readonly name: string
  /** Segment i's statistics (its best reference's, for chrF), one vector per candidate. */
  segmentStats(candidates: readonly string[], segments: CorpusReferences): number[][]
  /** Score from summed statistics (see {@link StatsScorer}). */
  readonly score: StatsScorer
  /** The signature with `extra` entries (`bs`, `ar`, `seed`) right after `nrefs`, as sacrebleu orders them. */
  signature(nrefs: number | 'var', extra: ReadonlyArray<readonly [string, SignatureValue]>): string
}
