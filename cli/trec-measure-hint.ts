/**
 * Did-you-mean for `rag-matchers trec -m`: the spellings other tools use for trec_eval's measures (`ndcg@10`,
 * `P@5`, `recall@100`, `map@10`, `mrr`) map to the trec_eval name with its cutoff; anything else gets the nearest
 * measure or set name by edit distance (`nearestKey`), or the list when nothing is close.
 */
import { nearestKey } from '../src/options.js'
import { MEASURE_SETS, MEASURES } from '../src/retrieval/trec/measures.js'

/** `name@k` spellings (lower-cased name) → the trec_eval measure that takes the cutoff as its parameter. */
const AT_K: Readonly<Record<string, string>> = {
  ndcg: 'ndcg_cut',
  p: 'P',
  precision: 'P',
  recall: 'recall',
  r: 'recall',
  map: 'map_cut',
  ap: 'map_cut',
  success: 'success',
  hits: 'success',
}

/** Names without a cutoff that other tools use. */
const ALIASES: Readonly<Record<string, string>> = {
  mrr: 'recip_rank',
  rr: 'recip_rank',
  precision: 'P',
  ap: 'map',
}

/**
 * The trec_eval spelling the user probably meant, or undefined when nothing is near.
 *
 * @example
 * suggestMeasure('ndcg@10') // → 'ndcg_cut.10'
 * suggestMeasure('recip_rnak') // → 'recip_rank'
 */
export function suggestMeasure(request: string): string | undefined {
  const at = /^([A-Za-z_]+)@(\d+)$/.exec(request)
  if (at) {
    const name = at[1]!.toLowerCase()
    if (name === 'mrr' || name === 'rr') return 'recip_rank'
    const measure = AT_K[name]
    if (measure !== undefined) return `${measure}.${at[2]}`
  }
  const dot = request.indexOf('.')
  const name = dot < 0 ? request : request.slice(0, dot)
  const alias = ALIASES[name.toLowerCase()]
  if (alias !== undefined && alias !== name) return dot < 0 ? alias : `${alias}${request.slice(dot)}`
  const near = nearestKey(name, [...MEASURES.map((m) => m.name), ...Object.keys(MEASURE_SETS)])
  return near === undefined ? undefined : dot < 0 ? near : `${near}${request.slice(dot)}`
}

/** The message for an unknown `-m` measure: a suggestion when there is one, the names otherwise. */
export function unknownMeasureMessage(request: string): string {
  const near = suggestMeasure(request)
  if (near !== undefined) return `unknown measure '${request}' — did you mean '${near}'?`
  return `unknown measure '${request}'; the measures are ${MEASURES.map((m) => m.name).join(', ')} and the sets ${Object.keys(MEASURE_SETS).join(', ')}`
}
