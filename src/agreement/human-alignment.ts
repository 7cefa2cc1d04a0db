/**
 * Judge vs humans (issue #30): how well an LLM judge's verdicts on a set of items agree with people's
 * labels on the same items, in the forms of `examples/human-eval/`: direct ratings (`{ item, rater,
 * dimension?, score }`) or pairwise preferences (`{ item, rater, a, b, winner }`). Every statistic is the
 * agreement core's (cohenKappa, spearman, krippendorffAlpha), whose parity is tested there.
 */
import { readFile } from 'node:fs/promises'
import { firstHole, holeProblem } from '../dense-array.js'
import { describeValue, MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { cohenKappa, type KappaWeighting } from './cohen-kappa.js'
import { spearman } from './correlation.js'
import { krippendorffAlpha } from './krippendorff-alpha.js'
import { idOf, isObject, kindOf } from './rating-table.js'
import type { Label } from './shared.js'

/** The judge's verdict on one item: a score on the humans' scale (or label, or pass/fail) and its reason. */
export interface JudgedRating {
  readonly item: string | number
  readonly score: Label
  readonly reason?: string
}

/** The judge's preference on one item between systems `a` and `b`. */
export interface JudgedPreference {
  readonly item: string | number
  readonly a: string
  readonly b: string
  readonly winner: 'a' | 'b' | 'tie'
  readonly reason?: string
}

export type JudgedItem = JudgedRating | JudgedPreference

export interface HumanAlignmentOptions {
  /** The dimension of the human ratings; required when they hold several. */
  readonly dimension?: string
  /**
   * Kappa weights over the scale's points in order. @default 'linear' for numeric scores (an ordinal
   * scale: 4 against 5 is a smaller disagreement than 1 against 5), 'none' for labels, booleans and preferences
   */
  readonly weights?: KappaWeighting
}

/** The keys of {@link HumanAlignmentOptions}: what humanAlignment accepts. */
export const HUMAN_ALIGNMENT_OPTION_KEYS = keysOf<HumanAlignmentOptions>()('dimension', 'weights')

/** An item where the judge's verdict differs from the people's consensus. */
export interface AlignmentDisagreement {
  readonly item: string
  readonly judge: Label
  readonly consensus: Label
  /** rater → label (for preferences: the preferred system, or `tie`). */
  readonly humans: Readonly<Record<string, Label>>
  readonly reason?: string
  /** Steps apart on the scale (numeric), else 1. */
  readonly distance: number
}

/** A statistic that may be undefined for the data: NaN with the reason. */
export interface AlignmentStatistic {
  readonly value: number
  readonly reason?: string
}

export interface HumanAlignmentDetails {
  readonly kind: 'ratings' | 'preferences'
  readonly dimension?: string
  readonly raters: readonly string[]
  /** Items compared (labelled by people, judged, with a consensus). */
  readonly n: number
  /** How each item's human label was formed. */
  readonly consensusRule: string
  readonly weights: KappaWeighting
  /** The categories, in order, of the confusion matrix. */
  readonly labels: readonly Label[]
  /** counts[i][j]: the judge said labels[i], the people labels[j]. */
  readonly confusionMatrix: readonly (readonly number[])[]
  /** Share of items where the judge gives the consensus label. */
  readonly accuracy: number
  readonly kappa: AlignmentStatistic
  /** Spearman's rho between the judge's score and the people's mean score (numeric ratings only). */
  readonly spearman?: AlignmentStatistic & { readonly pvalue?: number }
  /** How well the people agree among themselves: Krippendorff's alpha over their labels (the ceiling to compare with). */
  readonly humanAlpha: AlignmentStatistic & { readonly level: 'nominal' | 'ordinal' }
  /** Every item where judge and consensus differ, farthest apart first. */
  readonly disagreements: readonly AlignmentDisagreement[]
  /** Items whose raters split evenly between labels (labels and preferences): no consensus, left out. */
  readonly noConsensus: readonly string[]
  /** Judged items no person labelled (on this dimension): left out. */
  readonly unlabelled: readonly string[]
}

/**
 * Bad input to {@link humanAlignment}: `problem` is one sentence naming the record and what is wrong,
 * which the matcher and the CLI show as they are.
 */
export class HumanAlignmentInputError extends MetricInputError {
  readonly problem: string
  constructor(argument: string, problem: string, received: unknown) {
    super('humanAlignment', argument, problem, received)
    this.problem = problem
    this.message = `humanAlignment: ${problem}`
  }
}

const fail = (argument: string, problem: string, received?: unknown): never => {
  throw new HumanAlignmentInputError(argument, problem, received)
}

interface HumanRecord {
  readonly item: string
  readonly rater: string
  readonly label: Label
  /** Preferences: the item's two systems, sorted. */
  readonly pair?: readonly [string, string]
}

const isPreference = (r: Record<string, unknown>) => 'winner' in r && !('score' in r)

/** Human labels as records, `loadRatings()` output, or `{ scores, comparisons }`. */
function humanRecords(labels: unknown, kind: 'ratings' | 'preferences'): unknown[] {
  if (Array.isArray(labels)) return labels
  if (isObject(labels) && (Array.isArray(labels.scores) || Array.isArray(labels.comparisons))) {
    const part = kind === 'ratings' ? labels.scores : labels.comparisons
    return Array.isArray(part) ? part : []
  }
  return fail(
    'labels',
    'labels must be human rating records [{ item, rater, dimension?, score }], pairwise records [{ item, rater, a, b, winner }], or loadRatings() output',
    labels,
  )
}

/** The winner of a preference as a label that does not depend on the order shown: the system's name, or `tie`. */
function preferred(a: string, b: string, winner: unknown): Label | undefined {
  if (winner === 'a') return a
  if (winner === 'b') return b
  if (winner === 'tie') return 'tie'
  return undefined
}

function readJudged(judged: unknown): { kind: 'ratings' | 'preferences'; items: Map<string, { label: Label; reason?: string; pair?: readonly [string, string] }> } {
  let rows = judged
  if (isObject(judged) && Array.isArray(judged.scores)) rows = judged.scores
  if (!Array.isArray(rows) || rows.length === 0) {
    fail('judged', "the judge's results must be a non-empty array of { item, score, reason? } (ratings) or { item, a, b, winner, reason? } (preferences)", judged)
  }
  const list = rows as unknown[]
  // `forEach` skips the holes of a sparse array: a verdict left out must be refused, not ignored
  if (firstHole(list) >= 0) fail('judged', `${holeProblem(rows === judged ? 'judged' : 'judged.scores', firstHole(list))}; give one verdict per element`, judged)
  const first = list[0]
  const kind = isObject(first) && isPreference(first) ? 'preferences' : 'ratings'
  const items = new Map<string, { label: Label; reason?: string; pair?: readonly [string, string] }>()
  let scoreKind: string | undefined
  list.forEach((row, i) => {
    const where = `judged[${i}]`
    if (!isObject(row)) fail('judged', `${where} must be ${kind === 'ratings' ? 'a verdict { item, score, reason? }' : 'a preference { item, a, b, winner, reason? }'}`, row)
    const r = row as Record<string, unknown>
    const item = idOf(r.item) ?? fail('judged', `${where}.item must be a non-empty string or a number`, r.item)
    if (items.has(item)) fail('judged', `${where} judges item ${JSON.stringify(item)} again; keep one verdict per item`, row)
    if (r.reason !== undefined && typeof r.reason !== 'string') fail('judged', `${where}.reason must be a string`, r.reason)
    const reason = r.reason as string | undefined
    if (kind === 'preferences') {
      if (!isPreference(r)) fail('judged', `${where} is a score, but judged[0] is a preference; use one form`, row)
      const a = idOf(r.a) ?? fail('judged', `${where}.a must name a system`, r.a)
      const b = idOf(r.b) ?? fail('judged', `${where}.b must name a system`, r.b)
      if (a === b) fail('judged', `${where} compares ${a} with itself`, row)
      const label = preferred(a, b, r.winner) ?? fail('judged', `${where}.winner must be 'a', 'b' or 'tie'`, r.winner)
      items.set(item, { label, pair: [a, b].sort() as [string, string], ...(reason === undefined ? {} : { reason }) })
      return
    }
    if (isPreference(r)) fail('judged', `${where} is a preference, but judged[0] is a score; use one form`, row)
    const k = kindOf(r.score) ?? fail('judged', `${where}.score must be a finite number, a non-empty label or a boolean`, r.score)
    if (scoreKind !== undefined && k !== scoreKind) fail('judged', `${where}.score is a ${k}, but earlier scores are ${scoreKind}s; use one kind of score`, r.score)
    scoreKind = k
    items.set(item, { label: r.score as Label, ...(reason === undefined ? {} : { reason }) })
  })
  return { kind, items }
}

function readHumans(labels: unknown, kind: 'ratings' | 'preferences', dimensionOption: string | undefined): { records: HumanRecord[]; dimension?: string } {
  const rows = humanRecords(labels, kind)
  if (rows.length === 0) {
    fail(
      'labels',
      kind === 'ratings' ? 'the human labels hold no ratings (a file of pairwise preferences? then judge preferences too)' : 'the human labels hold no pairwise preferences',
      labels,
    )
  }
  if (firstHole(rows) >= 0) fail('labels', `${holeProblem('labels', firstHole(rows))}; give one label per element`, labels)
  const parsed: Array<HumanRecord & { dimension: string }> = []
  rows.forEach((row, i) => {
    const where = `labels[${i}]`
    if (!isObject(row)) fail('labels', `${where} must be a human label record`, row)
    const r = row as Record<string, unknown>
    const item = idOf(r.item) ?? fail('labels', `${where}.item must be a non-empty string or a number`, r.item)
    // without the rater, agreement between people (and a consensus) cannot be formed
    const rater = idOf(r.rater) ?? fail('labels', `${where} has no rater id (\`rater\` must be a non-empty string or a number): every human label names who gave it`, r.rater)
    if (kind === 'preferences') {
      if (!isPreference(r)) fail('labels', `${where} is a score, but the judge gave preferences: compare preferences with preferences`, row)
      const a = idOf(r.a) ?? fail('labels', `${where}.a must name a system`, r.a)
      const b = idOf(r.b) ?? fail('labels', `${where}.b must name a system`, r.b)
      const label = preferred(a, b, r.winner) ?? fail('labels', `${where}.winner must be 'a', 'b' or 'tie'`, r.winner)
      parsed.push({ item, rater, label, pair: [a, b].sort() as [string, string], dimension: 'overall' })
      return
    }
    if (isPreference(r)) fail('labels', `${where} is a pairwise preference, but the judge gave scores: compare scores with scores`, row)
    if (kindOf(r.score) === undefined) fail('labels', `${where}.score must be a finite number, a non-empty label or a boolean`, r.score)
    const dimension = r.dimension === undefined || r.dimension === null || r.dimension === '' ? 'overall' : r.dimension
    if (typeof dimension !== 'string') fail('labels', `${where}.dimension must be a string`, r.dimension)
    parsed.push({ item, rater, label: r.score as Label, dimension: dimension as string })
  })
  const dimensions = [...new Set(parsed.map((r) => r.dimension))]
  let dimension: string | undefined
  if (kind === 'ratings') {
    dimension =
      dimensionOption !== undefined
        ? dimensions.includes(dimensionOption)
          ? dimensionOption
          : fail('options.dimension', `options.dimension ${JSON.stringify(dimensionOption)} is not in the human labels; dimensions: ${dimensions.join(', ')}`, dimensionOption)
        : dimensions.length > 1
          ? fail(
              'options.dimension',
              `the human labels have ${dimensions.length} dimensions (${dimensions.join(', ')}); choose the one the judge scored with options.dimension`,
              dimensions,
            )
          : dimensions[0]
  } else if (dimensionOption !== undefined) {
    fail('options.dimension', 'options.dimension applies to ratings; pairwise preferences have no dimension', dimensionOption)
  }
  const records = parsed.filter((r) => r.dimension === (dimension ?? 'overall'))
  const seen = new Set<string>()
  let humanKind: string | undefined
  for (const r of records) {
    const key = `${r.item}\u0000${r.rater}`
    if (seen.has(key))
      fail('labels', `${r.rater} labels item ${JSON.stringify(r.item)} twice${dimension === undefined ? '' : ` on ${dimension}`}; keep one label per item and rater`, r.label)
    seen.add(key)
    const k = kindOf(r.label)
    if (kind === 'ratings' && humanKind !== undefined && k !== humanKind) fail('labels', `the human scores mix ${humanKind}s and ${k}s; use one kind of score`, r.label)
    humanKind = k
  }
  return { records, ...(dimension === undefined ? {} : { dimension }) }
}

/** The lower median (a point of the scale even for an even number of raters). */
function lowerMedian(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor((sorted.length - 1) / 2)] as number
}

/** The most frequent label, or undefined when two or more share the top count. */
function majority(labels: readonly Label[]): Label | undefined {
  const counts = new Map<string, { label: Label; n: number }>()
  for (const l of labels) {
    const key = `${typeof l}:${String(l)}`
    const c = counts.get(key)
    if (c === undefined) counts.set(key, { label: l, n: 1 })
    else c.n += 1
  }
  const ranked = [...counts.values()].sort((x, y) => y.n - x.n)
  if (ranked.length > 1 && (ranked[0] as { n: number }).n === (ranked[1] as { n: number }).n) return undefined
  return ranked[0]?.label
}

/**
 * How far an LLM judge agrees with people on the same items.
 *
 * - Direct ratings: each item's human label is the consensus of its raters: the lower median for numeric
 *   scores (a point of the scale; with an odd number of raters, the median), the majority for labels
 *   and booleans (an even split is no consensus: the item is listed and left out). Cohen's kappa between
 *   the judge's score and the consensus (the core's `cohenKappa`, scikit-learn semantics), weighted
 *   `'linear'` by default for numeric scales over every integer point between the lowest and highest
 *   score (so an unused point still counts in the distances); Spearman's rho between the judge's score
 *   and the mean human score (numeric scales only).
 * - Pairwise preferences: each side's verdict is the preferred system or `tie` (independent of the order
 *   shown); consensus by majority; unweighted kappa.
 *
 * Also reports how well the people agree among themselves (Krippendorff's alpha, ordinal for numbers,
 * nominal otherwise): a judge cannot be expected to agree with people better than they agree with each other.
 *
 * Refused, as {@link HumanAlignmentInputError} naming the record: a human label without a rater id;
 * fewer than two raters; labels for items the judge did not judge; a judge score not on the people's
 * scale (another kind, a label they never used, or a number outside their range or off their integer
 * points); ratings against preferences; duplicates. `value` is kappa; NaN with a reason when undefined
 * (one category on both sides).
 *
 * @example
 * humanAlignment([{ item: 'q1', score: 5 }, { item: 'q2', score: 1 }, { item: 'q3', score: 4 }], [
 *   { item: 'q1', rater: 'ann', score: 5 }, { item: 'q1', rater: 'bob', score: 4 },
 *   { item: 'q2', rater: 'ann', score: 1 }, { item: 'q2', rater: 'bob', score: 2 },
 *   { item: 'q3', rater: 'ann', score: 4 }, { item: 'q3', rater: 'bob', score: 4 },
 * ]).value // 0.8: the people's lower medians are 4, 1, 4; linear weights over 1–5 (Spearman 1)
 */
export function humanAlignment(judged: unknown, labels: unknown, options: HumanAlignmentOptions = {}): Score<HumanAlignmentDetails> {
  if (options === null || typeof options !== 'object') throw new MetricInputError('humanAlignment', 'options', 'an object', options)
  checkOptionKeys('humanAlignment', options, HUMAN_ALIGNMENT_OPTION_KEYS)
  if (options.weights !== undefined && !['none', 'linear', 'quadratic'].includes(options.weights)) {
    fail('options.weights', "options.weights must be 'none', 'linear' or 'quadratic'", options.weights)
  }
  const j = readJudged(judged)
  const h = readHumans(labels, j.kind, options.dimension)
  const raters = [...new Set(h.records.map((r) => r.rater))].sort()
  if (raters.length < 2) {
    fail(
      'labels',
      `human agreement needs at least two raters, and the labels${h.dimension === undefined || h.dimension === 'overall' ? '' : ` on ${h.dimension}`} name ${raters.length === 0 ? 'none' : `only ${raters[0]}`}: one person's labels cannot show whether people agree`,
      raters,
    )
  }
  const byItem = new Map<string, HumanRecord[]>()
  for (const r of h.records) byItem.set(r.item, [...(byItem.get(r.item) ?? []), r])
  const missing = [...byItem.keys()].filter((item) => !j.items.has(item))
  if (missing.length > 0) {
    fail(
      'labels',
      `people labelled ${missing.length} ${missing.length === 1 ? 'item' : 'items'} the judge did not judge (${missing
        .slice(0, 5)
        .map((m) => JSON.stringify(m))
        .join(', ')}${missing.length > 5 ? ', …' : ''}): judge every labelled item, or leave those labels out`,
      missing,
    )
  }
  const unlabelled = [...j.items.keys()].filter((item) => !byItem.has(item))

  // The scale: the people's; the judge's verdicts must be on it.
  const humanLabels = h.records.map((r) => r.label)
  const humanKind = kindOf(humanLabels[0])
  const numeric = j.kind === 'ratings' && humanKind === 'number'
  let domain: Label[]
  if (j.kind === 'preferences') {
    for (const [item, v] of j.items) {
      const pair = byItem.get(item)?.[0]?.pair
      if (pair !== undefined && (pair[0] !== v.pair?.[0] || pair[1] !== v.pair?.[1])) {
        fail(
          'judged',
          `the judge compared ${v.pair?.join(' and ')} on item ${JSON.stringify(item)}, but people compared ${pair.join(' and ')}: compare the same systems`,
          item,
        )
      }
    }
    domain = [...new Set([...humanLabels, ...[...j.items.values()].map((v) => v.label)].map(String))].sort()
  } else {
    const judgeKind = kindOf([...j.items.values()][0]?.label)
    if (judgeKind !== humanKind) {
      fail(
        'judged',
        `the judge's scores are ${judgeKind}s and the people's are ${humanKind}s: the scales do not match (give the judge's verdict on the people's scale)`,
        judgeKind,
      )
    }
    if (numeric) {
      const values = humanLabels as number[]
      const lo = Math.min(...values)
      const hi = Math.max(...values)
      const integral = values.every((v) => Number.isInteger(v))
      for (const [item, v] of j.items) {
        const x = v.label as number
        if (x < lo || x > hi || (integral && !Number.isInteger(x))) {
          fail(
            'judged',
            `the judge scored item ${JSON.stringify(item)} ${describeValue(x)}, which is not on the people's scale (${integral ? `the integers ${lo}–${hi}` : `${lo}–${hi}`}): the scales do not match (for a rubric score, give details.raw, not the 0–1 value)`,
            x,
          )
        }
      }
      domain = integral ? Array.from({ length: hi - lo + 1 }, (_, k) => lo + k) : [...new Set(values)].sort((x, y) => x - y)
    } else {
      const known = new Set(humanLabels.map((l) => `${typeof l}:${String(l)}`))
      for (const [item, v] of j.items) {
        if (!known.has(`${typeof v.label}:${String(v.label)}`)) {
          fail(
            'judged',
            `the judge labelled item ${JSON.stringify(item)} ${describeValue(v.label)}, a label the people never used (${[...new Set(humanLabels.map(String))].join(', ')}): the scales do not match`,
            v.label,
          )
        }
      }
      domain = [...new Map(humanLabels.map((l) => [`${typeof l}:${String(l)}`, l])).values()].sort((x, y) => (String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0))
    }
  }

  // One consensus per item, in the order people labelled them.
  const compared: Array<{ item: string; judge: Label; consensus: Label; humans: Record<string, Label>; mean?: number; reason?: string }> = []
  const noConsensus: string[] = []
  for (const [item, records] of byItem) {
    const verdict = j.items.get(item) as { label: Label; reason?: string }
    const humans = Object.fromEntries(records.map((r) => [r.rater, r.label]))
    const labelsOf = records.map((r) => r.label)
    const consensus = numeric ? lowerMedian(labelsOf as number[]) : majority(labelsOf)
    if (consensus === undefined) {
      noConsensus.push(item)
      continue
    }
    compared.push({
      item,
      judge: verdict.label,
      consensus,
      humans,
      ...(numeric ? { mean: (labelsOf as number[]).reduce((a, b) => a + b, 0) / labelsOf.length } : {}),
      ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
    })
  }
  if (compared.length === 0) fail('labels', `no item has a consensus of its raters (${noConsensus.length} split evenly), so there is nothing to compare`, noConsensus)

  const weights: KappaWeighting = options.weights ?? (numeric ? 'linear' : 'none')
  if (weights !== 'none' && !numeric && j.kind === 'ratings' && humanKind === 'string') {
    fail('options.weights', 'options.weights needs numeric (or boolean) scores: labels have no order', weights)
  }
  const judgeSide = compared.map((c) => (j.kind === 'preferences' ? String(c.judge) : c.judge))
  const humanSide = compared.map((c) => (j.kind === 'preferences' ? String(c.consensus) : c.consensus))
  const k = cohenKappa(judgeSide, humanSide, { ...(weights === 'none' ? {} : { weights }), labels: domain })
  const kappa: AlignmentStatistic = Number.isNaN(k.value) ? { value: Number.NaN, reason: k.details.reason ?? 'kappa is 0/0' } : { value: k.value }

  let rho: HumanAlignmentDetails['spearman']
  if (numeric) {
    const s = spearman(
      compared.map((c) => c.judge as number),
      compared.map((c) => c.mean as number),
    )
    rho = Number.isNaN(s.value) ? { value: Number.NaN, reason: s.details.reason ?? 'undefined' } : { value: s.value, pvalue: s.details.pvalue }
  }

  const level = numeric ? 'ordinal' : 'nominal'
  const items = [...byItem.keys()]
  // The reference takes no booleans: pass/fail go in as the labels 'false' < 'true' (as agreementReport does).
  const cell = (l: Label | undefined) => (l === undefined ? null : typeof l === 'boolean' || j.kind === 'preferences' ? String(l) : l)
  const matrix = raters.map((rater) => items.map((item) => cell(byItem.get(item)?.find((r) => r.rater === rater)?.label)))
  let humanAlpha: HumanAlignmentDetails['humanAlpha']
  try {
    const a = krippendorffAlpha(matrix, { level })
    humanAlpha = Number.isNaN(a.value) ? { value: Number.NaN, level, reason: a.details.reason ?? 'alpha is 0/0' } : { value: a.value, level }
  } catch (error) {
    if (!(error instanceof MetricInputError)) throw error
    humanAlpha = { value: Number.NaN, level, reason: `undefined: the labels need ${error.expected}` }
  }

  const position = (l: Label) => domain.findIndex((d) => String(d) === String(l))
  const disagreements = compared
    .filter((c) => String(c.judge) !== String(c.consensus))
    .map((c) => ({
      item: c.item,
      judge: c.judge,
      consensus: c.consensus,
      humans: c.humans,
      ...(c.reason === undefined ? {} : { reason: c.reason }),
      distance: numeric ? Math.abs(position(c.judge) - position(c.consensus)) : 1,
    }))
    .sort((x, y) => y.distance - x.distance)
  const accuracy = (compared.length - disagreements.length) / compared.length
  const signature = buildSignature('HumanAlignment', [
    ['form', j.kind],
    ['dim', h.dimension],
    ['consensus', numeric ? 'low-median' : 'majority'],
    ['weights', weights],
    ['n', compared.length],
    ['raters', raters.length],
    ['rev', 1],
  ])
  return makeScore('humanAlignment', kappa.value, signature, {
    kind: j.kind,
    ...(h.dimension === undefined ? {} : { dimension: h.dimension }),
    raters,
    n: compared.length,
    consensusRule: numeric
      ? `median of the ${raters.length} raters (the lower middle one for an even count)`
      : j.kind === 'preferences'
        ? 'the system most raters preferred, or tie'
        : 'the label most raters gave',
    weights,
    labels: domain,
    confusionMatrix: k.details.confusionMatrix,
    accuracy,
    kappa,
    ...(rho === undefined ? {} : { spearman: rho }),
    humanAlpha,
    disagreements,
    noConsensus,
    unlabelled,
  })
}

/**
 * Reads the judge's verdicts from JSONL, one object per line: `{ item, score, reason? }` or `{ item, a, b,
 * winner, reason? }`; other keys are ignored, blank lines skipped. A line that is not a JSON object is
 * refused naming the file and the line (the records themselves are checked by {@link humanAlignment}).
 */
export function parseJudged(text: string, source = '<input>'): Record<string, unknown>[] {
  if (typeof text !== 'string') throw new MetricInputError('parseJudged', 'text', 'a string', text)
  const out: Record<string, unknown>[] = []
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n/)
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new MetricInputError('parseJudged', `${source} line ${i + 1}`, 'a JSON object', `${line.slice(0, 60)} (${(error as Error).message})`)
    }
    if (!isObject(value)) throw new MetricInputError('parseJudged', `${source} line ${i + 1}`, 'a JSON object { item, score } or { item, a, b, winner }', value)
    out.push(value)
  })
  return out
}

/** {@link parseJudged} on a file. */
export async function loadJudged(path: string): Promise<Record<string, unknown>[]> {
  if (typeof path !== 'string' || path === '') throw new MetricInputError('loadJudged', 'path', 'a file path', path)
  return parseJudged(await readFile(path, 'utf8'), path)
}
