/**
 * METEOR's details, with the per-token lists built on first read: most callers read the score
 * alone, and the aligned pairs (one object each) and unmatched tokens were a large part of a
 * short sentence's cost. What they need is kept small: the token texts and one number per
 * candidate position. The result types are declared here too (meteor.ts re-exports them), so the two
 * modules import one way.
 */
import { pyLower } from '../text/python-lower.js'
import { pySplit } from '../text/python-string.js'

/** The stage that aligned a pair. */
export type MeteorStage = 'exact' | 'stem' | 'synonym'

export interface MeteorMatch {
  /** Token position in the candidate. */
  readonly candidate: number
  /** Token position in the reference. */
  readonly reference: number
  readonly stage: MeteorStage
  /** The lower-cased tokens that were aligned (before stemming). */
  readonly candidateToken: string
  readonly referenceToken: string
}

/** Everything about the alignment with one reference. */
export interface MeteorAlignment {
  /** The single-reference METEOR score. */
  readonly score: number
  readonly candidateLength: number
  readonly referenceLength: number
  /** Matches per stage and the aligned pairs, sorted by candidate position. */
  readonly matches: {
    readonly exact: number
    readonly stem: number
    readonly synonym: number
    readonly pairs: readonly MeteorMatch[]
  }
  /** Runs of pairs adjacent in both candidate and reference; 0 without matches. */
  readonly chunks: number
  /** chunks / matches (0 without matches). */
  readonly fragmentation: number
  /** gamma · fragmentation^beta. */
  readonly penalty: number
  /** matches / candidate length (0 for an empty candidate). */
  readonly precision: number
  /** matches / reference length (0 for an empty reference). */
  readonly recall: number
  /** P·R / (α·P + (1−α)·R), 0 without matches. */
  readonly fmean: number
  /** Unaligned candidate / reference tokens (lower-cased), the first 25 of each. */
  readonly unmatchedCandidate: readonly string[]
  readonly unmatchedReference: readonly string[]
}

export interface MeteorDetails extends MeteorAlignment {
  /** Index of the reference that gave the maximum (the first one on ties). */
  readonly bestReferenceIndex: number
  /** Single-reference scores, in reference order. */
  readonly referenceScores: readonly number[]
  readonly alpha: number
  readonly beta: number
  readonly gamma: number
}

const UNMATCHED_LIMIT = 25
const STAGES: readonly MeteorStage[] = ['exact', 'exact', 'stem', 'synonym']

/**
 * A side's lower-cased tokens (before stemming), or the text they are the `str.split()` and `str.lower()` of (split
 * on first read: the WebAssembly path keeps no token objects).
 */
export type SnapshotTokens = readonly { readonly text: string }[] | string

/** The best reference's alignment as the details read it. */
export interface AlignmentSnapshot {
  readonly hyp: SnapshotTokens
  readonly ref: SnapshotTokens
  readonly referenceLength: number
  /** Per candidate position (so one per candidate token): `4 · reference position + stage` (stage 1–3) when aligned, else −1. */
  readonly codes: readonly number[]
  /** The lists once read (undefined until then); kept here so that a score allocates one record. */
  pairs: MeteorMatch[] | undefined
  unmatchedCandidate: string[] | undefined
  unmatchedReference: string[] | undefined
}

/** The best reference's numbers (meteor.ts's alignment record): matches per stage (exact, stem, synonym) and the rest as reported. */
export type MeteorNumbers = Pick<MeteorAlignment, 'score' | 'chunks' | 'fragmentation' | 'penalty' | 'precision' | 'recall' | 'fmean'> & {
  readonly counts: readonly [number, number, number]
}

// Fields are `declare`d and set in the constructor: a class field is first defined as undefined and
// then assigned (ES2022 define semantics), twice the stores per score.

/** `details.matches`: the counts, and the pairs on first read. */
class MeteorMatches {
  declare readonly exact: number
  declare readonly stem: number
  declare readonly synonym: number
  #snapshot: AlignmentSnapshot
  constructor(n: MeteorNumbers, snapshot: AlignmentSnapshot) {
    this.exact = n.counts[0]
    this.stem = n.counts[1]
    this.synonym = n.counts[2]
    this.#snapshot = snapshot
  }
  /** Sorted by candidate position. */
  get pairs(): readonly MeteorMatch[] {
    const snapshot = this.#snapshot
    return (snapshot.pairs ??= alignedPairs(snapshot))
  }
  toJSON(): MeteorDetails['matches'] {
    return { exact: this.exact, stem: this.stem, synonym: this.synonym, pairs: this.pairs }
  }
}

export class LazyMeteorDetails implements MeteorDetails {
  declare readonly score: number
  declare readonly candidateLength: number
  declare readonly referenceLength: number
  declare readonly matches: MeteorMatches
  declare readonly chunks: number
  declare readonly fragmentation: number
  declare readonly penalty: number
  declare readonly precision: number
  declare readonly recall: number
  declare readonly fmean: number
  declare readonly bestReferenceIndex: number
  declare readonly referenceScores: readonly number[]
  declare readonly alpha: number
  declare readonly beta: number
  declare readonly gamma: number
  #snapshot: AlignmentSnapshot

  constructor(n: MeteorNumbers, snapshot: AlignmentSnapshot, bestReferenceIndex: number, referenceScores: readonly number[], alpha: number, beta: number, gamma: number) {
    this.score = n.score
    this.candidateLength = snapshot.codes.length
    this.referenceLength = snapshot.referenceLength
    this.matches = new MeteorMatches(n, snapshot)
    this.chunks = n.chunks
    this.fragmentation = n.fragmentation
    this.penalty = n.penalty
    this.precision = n.precision
    this.recall = n.recall
    this.fmean = n.fmean
    this.bestReferenceIndex = bestReferenceIndex
    this.referenceScores = referenceScores
    this.alpha = alpha
    this.beta = beta
    this.gamma = gamma
    this.#snapshot = snapshot
  }

  get unmatchedCandidate(): readonly string[] {
    const snapshot = this.#snapshot
    return (snapshot.unmatchedCandidate ??= unmatchedCandidate(snapshot))
  }

  get unmatchedReference(): readonly string[] {
    const snapshot = this.#snapshot
    return (snapshot.unmatchedReference ??= unmatchedReference(snapshot))
  }

  /** The plain object the eager details were, keys in the same order. */
  toJSON(): MeteorDetails {
    return {
      score: this.score,
      candidateLength: this.candidateLength,
      referenceLength: this.referenceLength,
      matches: this.matches.toJSON(),
      chunks: this.chunks,
      fragmentation: this.fragmentation,
      penalty: this.penalty,
      precision: this.precision,
      recall: this.recall,
      fmean: this.fmean,
      unmatchedCandidate: this.unmatchedCandidate,
      unmatchedReference: this.unmatchedReference,
      bestReferenceIndex: this.bestReferenceIndex,
      referenceScores: this.referenceScores,
      alpha: this.alpha,
      beta: this.beta,
      gamma: this.gamma,
    }
  }
}

function texts(tokens: SnapshotTokens): readonly string[] {
  return typeof tokens === 'string' ? pySplit(tokens).map(pyLower) : tokens.map((token) => token.text)
}

function alignedPairs(snapshot: AlignmentSnapshot): MeteorMatch[] {
  const { codes } = snapshot
  const hyp = texts(snapshot.hyp)
  const ref = texts(snapshot.ref)
  const pairs: MeteorMatch[] = []
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!
    if (code < 0) continue
    const j = code >> 2
    pairs.push({ candidate: i, reference: j, stage: STAGES[code & 3]!, candidateToken: hyp[i]!, referenceToken: ref[j]! })
  }
  return pairs
}

function unmatchedCandidate(snapshot: AlignmentSnapshot): string[] {
  const { codes } = snapshot
  const hyp = texts(snapshot.hyp)
  const out: string[] = []
  for (let i = 0; i < codes.length && out.length < UNMATCHED_LIMIT; i++) if (codes[i]! < 0) out.push(hyp[i]!)
  return out
}

function unmatchedReference(snapshot: AlignmentSnapshot): string[] {
  const { codes } = snapshot
  const ref = texts(snapshot.ref)
  const aligned = new Uint8Array(ref.length)
  for (let i = 0; i < codes.length; i++) if (codes[i]! >= 0) aligned[codes[i]! >> 2] = 1
  const out: string[] = []
  for (let j = 0; j < ref.length && out.length < UNMATCHED_LIMIT; j++) if (aligned[j] === 0) out.push(ref[j]!)
  return out
}
