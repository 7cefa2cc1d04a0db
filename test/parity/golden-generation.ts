// The golden generation data (fixtures/generation.json, see fixtures/PROVENANCE.md) as the sacrebleu parity test and
// the bleu/chrf/rouge/meteor CLI tests read it, and the comparisons they share: 1e-9 relative, BLEU breakdowns.
import { loadFixture } from './fixtures/load.js'

export interface BleuValues {
  score: number
  precisions: number[]
  bp: number
  sys_len: number
  ref_len: number
  counts: number[]
  totals: number[]
}

export interface GoldenCase {
  id: string
  hypothesis: string
  references: string[]
  sacrebleu: {
    bleu: number
    bleu_precisions: number[]
    bp: number
    sys_len: number
    ref_len: number
    bleu_counts: number[]
    bleu_totals: number[]
    chrf: number
    chrfpp: number
    bleu_variants: Record<string, BleuValues>
    chrf_variants: Record<string, number>
    tokenized: Record<string, { hyp: string; refs: string[] }>
  }
  rouge: Record<'stem' | 'nostem', Record<string, { p: number; r: number; f: number }>>
  meteor: number
}

export interface GoldenCorpus {
  id: string
  hypotheses: string[]
  references: Array<Array<string | null>>
  corpus_bleu: BleuValues
  corpus_chrf: number
  corpus_chrfpp: number
  corpus_bleu_variants: Record<string, BleuValues>
  corpus_chrf_variants: Record<string, number>
}

export const golden = loadFixture<{ cases: GoldenCase[]; corpora: GoldenCorpus[] }>('generation.json')

/** Relative 1e-9 (exact when the reference is 0). */
export function close(actual: number, expected: number): boolean {
  if (expected === 0) return actual === 0
  return Math.abs(actual - expected) <= 1e-9 * Math.abs(expected)
}

/** A case's default sentence BLEU as sacrebleu gave it, laid out like the variants. */
export function goldenSentenceBleu(c: GoldenCase): BleuValues {
  const s = c.sacrebleu
  return { score: s.bleu, precisions: s.bleu_precisions, bp: s.bp, sys_len: s.sys_len, ref_len: s.ref_len, counts: s.bleu_counts, totals: s.bleu_totals }
}

/**
 * Mismatches of one BLEU result against sacrebleu's values: lengths, counts and totals exactly, score, bp and
 * precisions to 1e-9, and no extra n-gram order. `tally.values` counts the values compared.
 */
export function bleuMismatches(label: string, got: BleuValues, want: BleuValues, tally: { values: number }): string[] {
  const bad: string[] = []
  const exact: Array<[string, number | undefined, number]> = [
    ['sys_len', got.sys_len, want.sys_len],
    ['ref_len', got.ref_len, want.ref_len],
    ...want.counts.map((c, i): [string, number | undefined, number] => [`counts[${i}]`, got.counts[i], c]),
    ...want.totals.map((t, i): [string, number | undefined, number] => [`totals[${i}]`, got.totals[i], t]),
  ]
  const approx: Array<[string, number | undefined, number]> = [
    ['score', got.score, want.score],
    ['bp', got.bp, want.bp],
    ...want.precisions.map((p, i): [string, number | undefined, number] => [`precisions[${i}]`, got.precisions[i], p]),
  ]
  if (got.counts.length !== want.counts.length || got.precisions.length !== want.precisions.length) bad.push(`${label}: order count`)
  for (const [name, a, e] of exact) {
    tally.values++
    if (a !== e) bad.push(`${label} ${name}: ${a} vs ${e}`)
  }
  for (const [name, a, e] of approx) {
    tally.values++
    if (a === undefined || !close(a, e)) bad.push(`${label} ${name}: ${a} vs ${e}`)
  }
  return bad
}
