import { HOLE, MetricInputError } from '../errors.js'

/*
 * Argument checks shared by the sacrebleu-style metrics (BLEU, chrF): the sentence form
 * `(candidate, references)` and the corpus form `(candidates, referenceStreams)`.
 */

/** Validates `(candidate, references)` of the sentence-level functions; returns the references as an array. */
export function checkSentenceArgs(fn: string, candidate: unknown, references: unknown): readonly string[] {
  if (typeof candidate !== 'string') throw new MetricInputError(fn, 'candidate', 'a string', candidate)
  if (typeof references === 'string') return [references]
  if (!Array.isArray(references)) throw new MetricInputError(fn, 'references', 'a string or a non-empty array of strings', references)
  if (references.length === 0) throw new MetricInputError(fn, 'references', 'a string or a non-empty array of strings', references)
  for (let i = 0; i < references.length; i++) {
    // read by index, a hole would read as undefined: named as a hole instead (src/dense-array.ts)
    if (!(i in references)) throw new MetricInputError(fn, `references[${i}]`, 'a string', HOLE)
    if (typeof references[i] !== 'string') throw new MetricInputError(fn, `references[${i}]`, 'a string', references[i])
  }
  return references as readonly string[]
}

/** One corpus segment: its references and the stream index of each. */
export interface CorpusSegmentRefs {
  readonly refs: string[]
  readonly streams: number[]
}

/**
 * Validates `(candidates, referenceStreams)` of the corpus-level functions and regroups the streams
 * per segment, dropping `null` entries (sacrebleu drops `None`).
 */
export function checkCorpusArgs(fn: string, candidates: unknown, referenceStreams: unknown): CorpusSegmentRefs[] {
  if (!Array.isArray(candidates) || candidates.length === 0) throw new MetricInputError(fn, 'candidates', 'a non-empty array of strings', candidates)
  for (let i = 0; i < candidates.length; i++) {
    if (typeof candidates[i] !== 'string') throw new MetricInputError(fn, `candidates[${i}]`, 'a string', candidates[i])
  }
  if (!Array.isArray(referenceStreams) || referenceStreams.length === 0) {
    throw new MetricInputError(fn, 'referenceStreams', 'a non-empty array of reference streams (arrays of string | null)', referenceStreams)
  }
  const n = candidates.length
  const segments: CorpusSegmentRefs[] = Array.from({ length: n }, () => ({ refs: [], streams: [] }))
  for (let k = 0; k < referenceStreams.length; k++) {
    const stream: unknown = referenceStreams[k]
    if (!Array.isArray(stream) || stream.length !== n) {
      throw new MetricInputError(fn, `referenceStreams[${k}]`, `an array of ${n} entries (string or null), one per candidate`, stream)
    }
    for (let i = 0; i < n; i++) {
      const ref: unknown = stream[i]
      if (ref === null) continue
      if (typeof ref !== 'string') throw new MetricInputError(fn, `referenceStreams[${k}][${i}]`, 'a string or null', ref)
      segments[i]!.refs.push(ref)
      segments[i]!.streams.push(k)
    }
  }
  for (let i = 0; i < n; i++) {
    if (segments[i]!.refs.length === 0) {
      throw new MetricInputError(fn, `referenceStreams[*][${i}]`, 'at least one non-null reference for each candidate', null)
    }
  }
  return segments
}

/** The per-case arguments of `bleuSegments` / `chrfSegments`: candidates and, per candidate, a non-empty array of references. */
export function checkSegmentArgs(fn: string, candidates: unknown, references: unknown): void {
  if (!Array.isArray(candidates) || candidates.length === 0) throw new MetricInputError(fn, 'candidates', 'a non-empty array of strings', candidates)
  for (let i = 0; i < candidates.length; i++) {
    if (typeof candidates[i] !== 'string') throw new MetricInputError(fn, `candidates[${i}]`, 'a string', candidates[i])
  }
  if (!Array.isArray(references) || references.length !== candidates.length) {
    throw new MetricInputError(fn, 'references', `an array of ${candidates.length} reference arrays, one per candidate`, references)
  }
  for (let i = 0; i < references.length; i++) {
    const refs: unknown = references[i]
    if (!Array.isArray(refs) || refs.length === 0) throw new MetricInputError(fn, `references[${i}]`, 'a non-empty array of strings', refs)
    for (let j = 0; j < refs.length; j++) {
      if (!(j in refs)) throw new MetricInputError(fn, `references[${i}][${j}]`, 'a string', HOLE)
      if (typeof refs[j] !== 'string') throw new MetricInputError(fn, `references[${i}][${j}]`, 'a string', refs[j])
    }
  }
}

/** `{ corpus, segments }` with `segments` built once, on first read. */
export function lazySegments<S>(corpus: S, builders: ReadonlyArray<() => S>): { readonly corpus: S; readonly segments: S[] } {
  let segments: S[] | undefined
  return {
    corpus,
    get segments(): S[] {
      segments ??= builders.map((build) => build())
      return segments
    },
  }
}
