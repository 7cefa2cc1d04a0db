/**
 * The words of a judge-vs-humans comparison ({@link humanAlignment}), shared by `toAgreeWithHumans` and
 * `rag-matchers align`: what was compared, the statistics, the confusion matrix and the items where judge
 * and people disagree. Every user text (items, raters, labels, the judge's reasons) is terminal-safe.
 */
import { formatNumber, MAX_ROWS, quote, table } from '../text/format.js'
import { terminalSafe as safe } from '../text/terminal-safe.js'
import type { HumanAlignmentDetails } from './human-alignment.js'
import type { Label } from './shared.js'

const show = (l: Label) => (typeof l === 'string' ? (/^[\w.+-]+$/.test(l) ? l : JSON.stringify(l)) : String(l))
const number = (x: number) => formatNumber(x)
const safeTable = (rows: ReadonlyArray<ReadonlyArray<string>>, options?: { max?: number; total?: number }) =>
  table(
    rows.map((row) => row.map((cell) => safe(cell))),
    options,
  )

/** What was compared and how, and the statistics: kappa, Spearman, the people's own alpha, what was left out. */
export function alignmentSummary(d: HumanAlignmentDetails): string {
  const what = d.kind === 'preferences' ? 'pairwise preferences' : `ratings${d.dimension === undefined ? '' : ` of ${safe(d.dimension)}`}`
  const undefinedText = (reason: string | undefined) => `undefined (${safe(reason ?? '0/0')})`
  const lines = [
    `${d.n} ${d.n === 1 ? 'item' : 'items'} compared (${what}); people's label per item: ${d.consensusRule}; raters: ${d.raters.map((r) => safe(r)).join(', ')}`,
    `judge = people on ${number(d.accuracy)} of the items; Cohen's kappa${d.weights === 'none' ? '' : ` (${d.weights} weights)`} ${Number.isNaN(d.kappa.value) ? undefinedText(d.kappa.reason) : number(d.kappa.value)}`,
  ]
  if (d.spearman !== undefined) {
    const p = d.spearman.pvalue
    lines.push(
      `Spearman's rho, judge score vs mean human score: ${Number.isNaN(d.spearman.value) ? undefinedText(d.spearman.reason) : `${number(d.spearman.value)}${p === undefined || Number.isNaN(p) ? '' : ` (p = ${number(p)})`}`}`,
    )
  }
  lines.push(
    `people among themselves: Krippendorff's alpha (${d.humanAlpha.level}) ${Number.isNaN(d.humanAlpha.value) ? undefinedText(d.humanAlpha.reason) : number(d.humanAlpha.value)}`,
  )
  if (d.noConsensus.length > 0)
    lines.push(
      `left out, raters split evenly: ${d.noConsensus
        .slice(0, MAX_ROWS)
        .map((i) => safe(i))
        .join(', ')}${d.noConsensus.length > MAX_ROWS ? ', …' : ''}`,
    )
  if (d.unlabelled.length > 0)
    lines.push(
      `left out, judged but not labelled by people: ${d.unlabelled
        .slice(0, MAX_ROWS)
        .map((i) => safe(i))
        .join(', ')}${d.unlabelled.length > MAX_ROWS ? ', …' : ''}`,
    )
  return lines.join('\n')
}

/** The confusion matrix, rows the judge, columns the people (at most MAX_ROWS categories). */
export function alignmentConfusion(d: HumanAlignmentDetails): string {
  const k = Math.min(d.labels.length, MAX_ROWS)
  const header = ['judge \\ people', ...d.labels.slice(0, k).map(show)]
  const rows = d.confusionMatrix.slice(0, k).map((row, i) => [show(d.labels[i] as Label), ...row.slice(0, k).map(String)])
  return `confusion matrix (rows: judge, columns: people's label):\n${safeTable([header, ...rows], { max: k + 1 })}${d.labels.length > k ? `\n  (first ${k} of ${d.labels.length} categories)` : ''}`
}

/** Every item where judge and people differ (farthest apart first on a numeric scale), with each rater's label and the judge's reason. */
export function alignmentDisagreements(d: HumanAlignmentDetails): string {
  if (d.disagreements.length === 0) return 'the judge gives the people’s label on every item'
  const rows = d.disagreements.map((x) => [
    x.item,
    `judge ${show(x.judge)}`,
    `people ${show(x.consensus)} (${Object.entries(x.humans)
      .map(([rater, l]) => `${rater}=${show(l)}`)
      .join(', ')})`,
    x.reason === undefined ? '' : `— ${quote(x.reason, 100)}`,
  ])
  return `items where judge and people disagree (${d.disagreements.length} of ${d.n}${d.spearman !== undefined ? ', farthest apart first' : ''}):\n${safeTable(rows, { total: d.disagreements.length })}`
}
