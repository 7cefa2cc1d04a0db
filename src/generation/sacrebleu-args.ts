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

/** Per segment, its non-null references and the stream index of each. */
type SegmentGroups = ReadonlyArray<{ readonly refs: string[]; readonly streams: number[] }>

/** Regroups validated streams per segment, dropping `null` entries. */
function groupNonNull(streams: ReadonlyArray<ReadonlyArray<string | null>>, length: number): SegmentGroups {
  const grouped = Array.from({ length }, () => ({ refs: [] as string[], streams: [] as number[] }))
  for (let k = 0; k < streams.length; k++) {
    const stream = streams[k]!
    for (let i = 0; i < length; i++) {
      const ref = stream[i] as string | null
      if (ref === null) continue
      grouped[i]!.refs.push(ref)
      grouped[i]!.streams.push(k)
    }
  }
  return grouped
}

/**
 * The references of a corpus, per segment, as {@link checkCorpusArgs} validated them. Without `null`
 * entries (the usual corpus) nothing is regrouped: segment i's references are read from the streams
 * on request, so a 20,000-segment corpus no longer builds 20,000 objects that live through the whole
 * call (the GC work they caused was about a third of a warm corpus BLEU pass).
 */
export class CorpusReferences {
  private constructor(
    private readonly streams: ReadonlyArray<ReadonlyArray<string | null>>,
    /** per segment, its references and their stream indices; only when some entry is `null` */
    private readonly grouped: SegmentGroups | undefined,
    /** the number of segments */
    readonly length: number,
    /** the reference count of every segment, or `var` when they differ (sacrebleu's `nrefs`) */
    readonly nrefs: number | 'var',
  ) {}

  /** @internal validated streams of `length` entries each; `grouped` when some entry is `null` */
  static of(streams: ReadonlyArray<ReadonlyArray<string | null>>, length: number, grouped?: SegmentGroups): CorpusReferences {
    if (grouped === undefined) return new CorpusReferences(streams, undefined, length, streams.length)
    const counts = new Set(grouped.map((g) => g.refs.length))
    return new CorpusReferences(streams, grouped, length, counts.size === 1 ? [...counts][0]! : 'var')
  }

  /** The references of segment i (read only; without `null` entries a fresh array each call). */
  refs(i: number): readonly string[] {
    if (this.grouped !== undefined) return this.grouped[i]!.refs
    const streams = this.streams
    if (streams.length === 1) return [streams[0]![i] as string]
    const out = new Array<string>(streams.length)
    for (let k = 0; k < streams.length; k++) out[k] = streams[k]![i] as string
    return out
  }

  /** The stream index of the j-th reference of segment i. */
  stream(i: number, j: number): number {
    return this.grouped === undefined ? j : this.grouped[i]!.streams[j]!
  }
}

/**
 * Validates `(candidates, referenceStreams)` of the corpus-level functions; `null` entries are
 * dropped from their segment (sacrebleu drops `None`), which must keep at least one reference.
 */
export function checkCorpusArgs(fn: string, candidates: unknown, referenceStreams: unknown): CorpusReferences {
  if (!Array.isArray(candidates) || candidates.length === 0) throw new MetricInputError(fn, 'candidates', 'a non-empty array of strings', candidates)
  for (let i = 0; i < candidates.length; i++) {
    if (typeof candidates[i] !== 'string') throw new MetricInputError(fn, `candidates[${i}]`, 'a string', candidates[i])
  }
  if (!Array.isArray(referenceStreams) || referenceStreams.length === 0) {
    throw new MetricInputError(fn, 'referenceStreams', 'a non-empty array of reference streams (arrays of string | null)', referenceStreams)
  }
  const n = candidates.length
  let hasNull = false
  for (let k = 0; k < referenceStreams.length; k++) {
    const stream: unknown = referenceStreams[k]
    if (!Array.isArray(stream) || stream.length !== n) {
      throw new MetricInputError(fn, `referenceStreams[${k}]`, `an array of ${n} entries (string or null), one per candidate`, stream)
    }
    for (let i = 0; i < n; i++) {
      const ref: unknown = stream[i]
      if (typeof ref === 'string') continue
      if (ref !== null) throw new MetricInputError(fn, `referenceStreams[${k}][${i}]`, 'a string or null', ref)
      hasNull = true
    }
  }
  const streams = referenceStreams as ReadonlyArray<ReadonlyArray<string | null>>
  if (!hasNull) return CorpusReferences.of(streams, n)
  const grouped = groupNonNull(streams, n)
  for (let i = 0; i < n; i++) {
    if (grouped[i]!.refs.length === 0) {
      throw new MetricInputError(fn, `referenceStreams[*][${i}]`, 'at least one non-null reference for each candidate', null)
    }
  }
  return CorpusReferences.of(streams, n, grouped)
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
