/**
 * The per-case metrics a baseline can track, by name, so a baseline file can say `recall@3` and get
 * back the same computation (and signature) on every run.
 */
import { caseLabel, caseReferences, type EvalCase } from '../eval-case.js'
import { MetricInputError } from '../errors.js'
import { BLEU_OPTION_KEYS, sentenceBleu, type BleuOptions } from '../generation/bleu.js'
import { CHRF_OPTION_KEYS, sentenceChrf, type ChrfOptions } from '../generation/chrf.js'
import { METEOR_OPTION_KEYS, meteorScore, type MeteorOptions } from '../generation/meteor.js'
import { sentenceTer, TER_OPTION_KEYS, type TerOptions } from '../generation/ter/ter.js'
import { rougeScore, type RougeOptions, type RougeType } from '../generation/rouge.js'
import { averagePrecision } from '../retrieval/average-precision.js'
import { hitRateAtK } from '../retrieval/hit-rate.js'
import { NDCG_OPTION_KEYS, ndcgAtK, type NdcgOptions } from '../retrieval/ndcg.js'
import { precisionAtK } from '../retrieval/precision-at-k.js'
import { RETRIEVAL_OPTION_KEYS } from '../retrieval/ranking.js'
import { recallAtK } from '../retrieval/recall-at-k.js'
import { reciprocalRank } from '../retrieval/reciprocal-rank.js'
import type { RetrievalCase, RetrievalOptions } from '../retrieval/types.js'
import { unknownKeyProblem } from '../options.js'
import { parseSignature } from '../signature.js'
import type { MetricRun, MetricValues } from './metric-run.js'

/** A metric value for one case and the settings that produced it. */
export interface MetricValue {
  readonly value: number
  readonly signature: string
}

/** The names {@link computeMetric} knows; `k` is a positive integer (`recall@3`). */
export const METRIC_NAMES: readonly string[] = [
  'recall@k',
  'precision@k',
  'ndcg@k',
  'mrr',
  'hit@k',
  'map@k',
  'sentenceBleu',
  'sentenceChrf',
  'bleu',
  'chrf',
  'rouge1',
  'rouge2',
  'rougeL',
  'rougeLsum',
  'meteor',
  'ter',
]

const FN = 'computeMetric'
const KNOWN = `one of ${METRIC_NAMES.map((n) => `'${n}'`).join(', ')} (k a positive integer, e.g. 'recall@3')`

/** A registry metric and the options of its core function, e.g. `{ metric: 'ndcg@3', order: 'score', gain: 'exponential' }`. */
export type MetricWithOptions =
  | ({ readonly metric: `ndcg@${number}` } & NdcgOptions)
  | ({ readonly metric: `${'recall' | 'precision' | 'hit' | 'map'}@${number}` | 'mrr' } & RetrievalOptions)
  | ({ readonly metric: 'sentenceBleu' | 'bleu' } & BleuOptions)
  | ({ readonly metric: 'sentenceChrf' | 'chrf' } & ChrfOptions)
  | ({ readonly metric: RougeType } & Pick<RougeOptions, 'stemmer' | 'maxTokens'>)
  | ({ readonly metric: 'meteor' } & MeteorOptions)
  | ({ readonly metric: 'ter' } & TerOptions)

/**
 * What a baseline's `metrics` lists: a registry name (`'recall@3'`, core defaults) or the name with
 * the options its core function takes (`{ metric: 'ndcg@3', order: 'score' }`), the same options the
 * matchers take; they change the values and therefore the signature.
 */
export type MetricSpec = string | MetricWithOptions

/** A checked {@link MetricSpec}: the registry name and its options (own keys, `metric` removed). */
export interface ResolvedMetric {
  readonly name: string
  readonly options: Readonly<Record<string, unknown>>
}

/** Names that look like a baseline metric but are not one, with why (a corpus score has no per-case values to pair). */
const NOT_PER_CASE: Readonly<Record<string, string>> = {
  corpusBleu:
    "corpus BLEU (what toScoreBleuAbove computes for a set) sums n-gram statistics over the set, so it has no per-case values for the paired test; track 'sentenceBleu' (the mean of sentence BLEU), or compare two reports with rag-matchers compare",
  corpusChrf:
    "corpus chrF (what toScoreChrfAbove computes for a set) sums character n-gram statistics over the set, so it has no per-case values for the paired test; track 'sentenceChrf' (the mean of sentence chrF), or compare two reports with rag-matchers compare",
}

const RETRIEVAL_AT_K = /^(recall|precision|ndcg|hit|map)@([1-9][0-9]*)$/

type Kind = 'retrieval' | 'generation'

interface Definition {
  readonly kind: Kind
  /** Full scale of the metric: 100 for sacrebleu's BLEU, chrF and TER, 1 for everything else. */
  readonly scale: number
  /** TER counts edits, so lower is better; baselines and comparisons read this direction. */
  readonly higherIsBetter?: false
  /** The options the metric takes: its core function's option keys (ROUGE: `stemmer`, `maxTokens`; the type is the metric). */
  readonly optionKeys: readonly string[]
  readonly compute: (c: EvalCase, options: Readonly<Record<string, unknown>>) => MetricValue
}

function retrievalCase(name: string, c: EvalCase): RetrievalCase {
  if (!Array.isArray(c.retrieved)) throw new MetricInputError(FN, `evalCase.retrieved (for ${name})`, 'an array of ids or `{ id }` objects', c.retrieved)
  if (c.relevant === undefined || c.relevant === null || typeof c.relevant !== 'object') {
    throw new MetricInputError(FN, `evalCase.relevant (for ${name})`, 'an array/Set of ids or a record/Map of id → grade', c.relevant)
  }
  return c as RetrievalCase
}

function answerAndReferences(name: string, c: EvalCase): [string, readonly string[]] {
  if (typeof c.answer !== 'string') throw new MetricInputError(FN, `evalCase.answer (for ${name})`, 'a string', c.answer)
  const refs = caseReferences(c)
  if (refs === undefined || refs.length === 0) {
    throw new MetricInputError(FN, `evalCase.reference (for ${name})`, 'a string (or `references`, a non-empty array of strings)', c.references ?? c.reference)
  }
  return [c.answer, refs]
}

/**
 * Adds keys just before `version` (which stays last), so a signature can state a choice the core
 * function leaves implicit, such as which of ROUGE's P/R/F is tracked.
 */
function withKeys(signature: string, entries: ReadonlyArray<readonly [string, string]>): string {
  const at = signature.lastIndexOf('|version:')
  const extra = entries.map(([k, v]) => `${k}:${v}`).join('|')
  return at < 0 ? `${signature}|${extra}` : `${signature.slice(0, at)}|${extra}${signature.slice(at)}`
}

const ROUGE_KEYS: readonly string[] = ['stemmer', 'maxTokens']

function rouge(type: RougeType): Definition {
  return {
    kind: 'generation',
    scale: 1,
    optionKeys: ROUGE_KEYS,
    compute: (c, o) => {
      const [answer, refs] = answerAndReferences(type, c)
      // the registry's default is stemming on (the core's is off); `stem:yes|no` is in the signature either way
      const score = rougeScore(answer, refs, { stemmer: true, ...o, types: [type] })[type]
      if (score === undefined) throw new Error(`rougeScore returned no ${type}`)
      return { value: score.details.fmeasure, signature: withKeys(score.signature, [['measure', 'F']]) }
    },
  }
}

const sentenceBleuDef = (name: string): Definition => ({
  kind: 'generation',
  scale: 100,
  optionKeys: BLEU_OPTION_KEYS,
  compute: (c, o) => pick(sentenceBleu(...answerAndReferences(name, c), o)),
})
const sentenceChrfDef = (name: string): Definition => ({
  kind: 'generation',
  scale: 100,
  optionKeys: CHRF_OPTION_KEYS,
  compute: (c, o) => pick(sentenceChrf(...answerAndReferences(name, c), o)),
})

const FIXED: Readonly<Record<string, Definition>> = {
  mrr: {
    kind: 'retrieval',
    scale: 1,
    optionKeys: RETRIEVAL_OPTION_KEYS,
    compute: (c, o) => pick(reciprocalRank(retrievalCase('mrr', c), o)),
  },
  sentenceBleu: sentenceBleuDef('sentenceBleu'),
  sentenceChrf: sentenceChrfDef('sentenceChrf'),
  // the names baselines have always stored: the same mean of sentence scores (a stored key keeps its meaning)
  bleu: sentenceBleuDef('bleu'),
  chrf: sentenceChrfDef('chrf'),
  rouge1: rouge('rouge1'),
  rouge2: rouge('rouge2'),
  rougeL: rouge('rougeL'),
  rougeLsum: rouge('rougeLsum'),
  meteor: {
    kind: 'generation',
    scale: 1,
    optionKeys: METEOR_OPTION_KEYS,
    compute: (c, o) => pick(meteorScore(...answerAndReferences('meteor', c), o)),
  },
  ter: {
    kind: 'generation',
    scale: 100,
    higherIsBetter: false,
    optionKeys: TER_OPTION_KEYS,
    compute: (c, o) => {
      const score = sentenceTer(...answerAndReferences('ter', c), o)
      return { value: score.score, signature: score.signature }
    },
  },
}

function pick(score: { value: number; signature: string }): MetricValue {
  return { value: score.value, signature: score.signature }
}

function definition(name: unknown): Definition {
  if (typeof name !== 'string') throw new MetricInputError(FN, 'name', KNOWN, name)
  if (Object.prototype.hasOwnProperty.call(NOT_PER_CASE, name)) throw new MetricInputError(FN, 'name', `a per-case metric: ${NOT_PER_CASE[name] as string}`, name)
  const fixed = Object.prototype.hasOwnProperty.call(FIXED, name) ? FIXED[name] : undefined
  if (fixed !== undefined) return fixed
  const m = RETRIEVAL_AT_K.exec(name)
  if (m === null) throw new MetricInputError(FN, 'name', KNOWN, name)
  const family = m[1] as 'recall' | 'precision' | 'ndcg' | 'hit' | 'map'
  const k = Number(m[2])
  if (!Number.isSafeInteger(k)) throw new MetricInputError(FN, 'name', KNOWN, name)
  const compute = {
    recall: (c: RetrievalCase, o: RetrievalOptions) => recallAtK(c, k, o),
    precision: (c: RetrievalCase, o: RetrievalOptions) => precisionAtK(c, k, o),
    ndcg: (c: RetrievalCase, o: NdcgOptions) => ndcgAtK(c, k, o),
    hit: (c: RetrievalCase, o: RetrievalOptions) => hitRateAtK(c, k, o),
    map: (c: RetrievalCase, o: RetrievalOptions) => averagePrecision(c, k, o),
  }[family]
  return {
    kind: 'retrieval',
    scale: 1,
    optionKeys: family === 'ndcg' ? NDCG_OPTION_KEYS : RETRIEVAL_OPTION_KEYS,
    compute: (c, o) => pick(compute(retrievalCase(name, c), o)),
  }
}

/**
 * One named metric of one eval case, for baselines.
 *
 * Names and what they compute (core defaults unless stated):
 * - `recall@k`, `precision@k`, `ndcg@k` (linear gain), `hit@k` (0 or 1), `map@k` (AP cut at k,
 *   trec_eval `map_cut_k`), `mrr` (reciprocal rank of the first relevant id), from `retrieved` and
 *   `relevant`; duplicate ids count once (`dup:first`); no relevant ids → 0.
 * - `sentenceBleu`: sacrebleu sentence BLEU (13a, exp smoothing, effective order), and `sentenceChrf`:
 *   sacrebleu sentence chrF2, both on sacrebleu's 0–100 scale, from `answer` and `reference`/`references`.
 *   A baseline compares their MEAN over the cases, which is not the corpus BLEU/chrF of
 *   `toScoreBleuAbove`/`toScoreChrfAbove` on a set (corpus scores have no per-case values, so
 *   `corpusBleu`/`corpusChrf` are refused, saying so). `bleu` and `chrf` are the names baselines
 *   stored until now and keep meaning the same mean of sentence scores.
 * - `rouge1`, `rouge2`, `rougeL`, `rougeLsum`: rouge-score **F-measure with the Porter stemmer on**
 *   (the signature says `stem:yes|measure:F`), 0–1.
 * - `meteor`: NLTK METEOR with stemming and WordNet synonyms, 0–1.
 * - `ter`: sacrebleu sentence TER (tercom tokenizer, case-insensitive), 0–100 and above; lower is better.
 *
 * `options` are the core function's (`{ order: 'score', gain: 'exponential' }` for `ndcg@k`,
 * `{ tokenize: 'intl' }` for `sentenceBleu`; ROUGE takes `stemmer` and `maxTokens`); an unknown key
 * is refused naming the metric and the nearest valid key. The signature is the core metric's own,
 * built from those options, so a changed setting or library version shows up as a changed signature. Parity: each value is exactly the core function's (which carries the parity
 * statements: sacrebleu 2.6.0, rouge-score 0.1.2, NLTK 3.8, trec_eval).
 *
 * @throws MetricInputError for an unknown name (listing the known ones) or a case without the fields the metric needs
 * @example
 * computeMetric('recall@2', { retrieved: ['a', 'b', 'c'], relevant: ['b', 'c'] })
 * // { value: 0.5, signature: 'R|k:2|empty:zero|dup:first|version:0.1.0' }
 */
export function computeMetric(name: string, evalCase: EvalCase, options: Readonly<Record<string, unknown>> = {}): MetricValue {
  const def = definition(name)
  checkMetricOptions(FN, name, def, options, 'options')
  if (evalCase === null || typeof evalCase !== 'object') throw new MetricInputError(FN, 'evalCase', 'an eval case object', evalCase)
  return def.compute(evalCase, options)
}

function checkMetricOptions(fn: string, name: string, def: Definition, options: unknown, where: string): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new MetricInputError(fn, where, 'an object of options', options)
  for (const key of Object.keys(options)) {
    if (!def.optionKeys.includes(key)) {
      throw new MetricInputError(fn, `${where}.${key}`, `not set: ${name} ${unknownKeyProblem(key, def.optionKeys)}`, (options as Record<string, unknown>)[key])
    }
  }
}

/**
 * The option keys a registry metric takes: its core function's (`ndcg@k`: duplicates,
 * allowEmptyRelevant, order, gain; `sentenceBleu`: tokenize, smooth, …; ROUGE: stemmer, maxTokens).
 * @example metricOptionKeys('ndcg@3') // ['duplicates', 'allowEmptyRelevant', 'order', 'gain']
 */
export function metricOptionKeys(name: string): readonly string[] {
  return definition(name).optionKeys
}

/**
 * Checks one entry of a baseline's `metrics`: a registry name, or `{ metric, ...options }` whose
 * every other key is an option of that metric's core function. `where` names it in errors.
 *
 * @throws MetricInputError for an unknown metric (listing the known ones) or an unknown option (naming
 *   the metric and the nearest valid key: `ndcg@3 unknown option 'gian' — did you mean 'gain'?`)
 * @example resolveMetricSpec({ metric: 'ndcg@3', order: 'score' }) // { name: 'ndcg@3', options: { order: 'score' } }
 */
export function resolveMetricSpec(spec: unknown, where = 'metric', fn = 'resolveMetricSpec'): ResolvedMetric {
  if (typeof spec === 'string') {
    definition(spec)
    return { name: spec, options: {} }
  }
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new MetricInputError(fn, where, `a metric name or { metric, ...options }, the metric ${KNOWN}`, spec)
  }
  const { metric, ...options } = spec as { metric?: unknown }
  if (typeof metric !== 'string') throw new MetricInputError(fn, `${where}.metric`, KNOWN, metric)
  let def: Definition
  try {
    def = definition(metric)
  } catch (error) {
    if (error instanceof MetricInputError) throw new MetricInputError(fn, `${where}.metric`, error.expected, metric)
    throw error
  }
  checkMetricOptions(fn, metric, def, options, where)
  return { name: metric, options }
}

/**
 * Throws {@link MetricInputError} (listing the known names) unless `name` is a metric {@link computeMetric} knows.
 * @example assertMetricName('ndcg@10') // ok; assertMetricName('ndcg') throws
 */
export function assertMetricName(name: unknown): asserts name is string {
  definition(name)
}

/**
 * Whether `name` is a metric {@link computeMetric} knows.
 * @example isMetricName('hit@3') // true; isMetricName('hit@0') // false
 */
export function isMetricName(name: unknown): name is string {
  try {
    definition(name)
    return true
  } catch {
    return false
  }
}

/**
 * Full scale of a known metric (100 for `bleu` and `chrf`, sacrebleu's scale, else 1); 1 for names the registry does not know.
 * @example metricScale('bleu') // 100
 */
export function metricScale(name: string): number {
  return isMetricName(name) ? definition(name).scale : 1
}

/**
 * The values a known metric can take: `[0, scale]`, or `[0, Infinity]` for a lower-is-better count (TER).
 * @example metricRange('ter') // [0, Infinity]; metricRange('bleu') // [0, 100]
 */
export function metricRange(name: string): readonly [number, number] {
  const def = definition(name)
  return def.higherIsBetter === false ? [0, Number.POSITIVE_INFINITY] : [0, def.scale]
}

/**
 * `'retrieval'` (reads `retrieved`, `relevant`) or `'generation'` (reads `answer`, `reference`/`references`).
 * @example metricKind('mrr') // 'retrieval'
 */
export function metricKind(name: string): Kind {
  return definition(name).kind
}

/**
 * One signature for a metric over many cases: the shared signature when every case has the same,
 * else each key whose value differs becomes `var` (sacrebleu's convention for `nrefs`), so a set
 * whose cases have 1 or 2 references reads `nrefs:var`.
 *
 * @example mergeSignatures(['BLEU|nrefs:1|version:0.1.0', 'BLEU|nrefs:2|version:0.1.0']) // 'BLEU|nrefs:var|version:0.1.0'
 */
export function mergeSignatures(signatures: readonly string[]): string {
  const first = signatures[0]
  if (first === undefined) throw new MetricInputError('mergeSignatures', 'signatures', 'a non-empty array of signatures', signatures)
  if (signatures.every((s) => s === first)) return first
  const parsed = signatures.map(parseSignature)
  const base = parsed[0] as ReturnType<typeof parseSignature>
  const name = parsed.every((p) => p.name === base.name) ? base.name : 'var'
  const keys: string[] = []
  for (const p of parsed) for (const key of p.entries.keys()) if (!keys.includes(key)) keys.push(key)
  // version last, as in every signature
  keys.sort((a, b) => Number(a === 'version') - Number(b === 'version'))
  const parts = [name]
  for (const key of keys) {
    const values = new Set(parsed.map((p) => p.entries.get(key)))
    const value = values.size === 1 ? (base.entries.get(key) as string) : 'var'
    parts.push(`${key}:${value.replace(/%/g, '%25').replace(/\|/g, '%7C')}`)
  }
  return parts.join('|')
}

/**
 * Per-case values of several metrics over an eval set, in the shape of a baseline entry:
 * `{ metrics: { [name]: { signature, values: { [caseId]: value } } } }`. The case id is its `id`
 * (else its question, else `#<position>`); ids must be unique. The metric's signature is
 * {@link mergeSignatures} of the per-case ones. A metric is a registry name or `{ metric, ...options }`
 * ({@link MetricSpec}); each metric at most once.
 *
 * @throws MetricInputError for an unknown metric, a duplicate case id, a case whose pipeline failed
 *   (`error` set), or a case without the fields a metric needs (the message names the case)
 * @example
 * metricRunOf([{ id: 'q1', retrieved: ['a', 'b'], relevant: ['b'] }], ['mrr'])
 * // { metrics: { mrr: { signature: 'RR|dup:first|version:0.1.0', values: { q1: 0.5 } } } }
 */
export function metricRunOf(cases: readonly EvalCase[], metrics: readonly MetricSpec[]): MetricRun {
  const fn = 'metricRunOf'
  if (!Array.isArray(cases) || cases.length === 0) throw new MetricInputError(fn, 'cases', 'a non-empty array of eval cases', cases)
  if (!Array.isArray(metrics) || metrics.length === 0) throw new MetricInputError(fn, 'metrics', 'a non-empty array of metric names', metrics)
  const specs = metrics.map((m, i) => resolveMetricSpec(m, `metrics[${i}]`, fn))
  const names = new Set<string>()
  for (const [i, s] of specs.entries()) {
    if (names.has(s.name)) throw new MetricInputError(fn, `metrics[${i}]`, `each metric once (${s.name} is listed twice; one baseline key holds one setting)`, metrics[i])
    names.add(s.name)
  }
  const ids = cases.map((c, i) => caseLabel(c, i))
  const seen = new Map<string, number>()
  ids.forEach((id, i) => {
    const first = seen.get(id)
    if (first !== undefined) throw new MetricInputError(fn, `cases[${i}].id`, `unique (cases[${first}] has the same id)`, id)
    seen.set(id, i)
  })
  cases.forEach((c, i) => {
    if (c !== null && typeof c === 'object' && c.error !== undefined && c.error !== null) {
      const e = c.error as { message?: unknown }
      throw new MetricInputError(fn, `cases[${i}] (${ids[i]})`, 'a case whose pipeline succeeded', `failed: ${typeof e.message === 'string' ? e.message : String(c.error)}`)
    }
  })
  const out: Record<string, MetricValues> = Object.create(null) as Record<string, MetricValues>
  for (const { name: metric, options } of specs) {
    const values: Record<string, number> = Object.create(null) as Record<string, number>
    const signatures: string[] = []
    cases.forEach((c, i) => {
      let mv: MetricValue
      try {
        mv = computeMetric(metric, c, options)
      } catch (error) {
        if (error instanceof MetricInputError) {
          const field = error.argument.replace(/ \(for .*\)$/, '').replace(/^evalCase\.?/, '')
          throw new MetricInputError(fn, `cases[${i}]${field ? `.${field}` : ''}`, `${error.expected} (case ${ids[i]}, metric ${metric})`, error.received)
        }
        throw error
      }
      values[ids[i] as string] = mv.value
      signatures.push(mv.signature)
    })
    const lower = definition(metric).higherIsBetter === false ? { higherIsBetter: false } : {}
    out[metric] = { signature: mergeSignatures(signatures), values, ...lower }
  }
  return { metrics: out }
}
