/**
 * sacrebleu 2.x's multi-system output (`print_results_table`): one row per system and one column per metric, as
 * a box-drawn table (`-f text`) or a JSON list (`-f json`, the default). Without a paired test a cell is the score
 * with `-w` decimals; with `--paired-bs`/`--paired-ar` it is `SCORE (MEAN ± CI)` and, below, `(p = P)` with a `*`
 * when p ≤ 0.05, the column titled `METRIC (μ ± 95% CI)` when there are intervals. A legend and the signatures
 * follow the table.
 */
import type { PairedSystemResult } from '../src/generation/significance/paired.js'
import { pyJsonDumps, type PyJson } from './python-json.js'
import { fancyGrid } from './text-table.js'
import { pyFixed } from './text-input.js'

/** One metric's column: its name, its signature (without the name, as sacrebleu prints it) and one cell per system. */
export interface MetricColumn {
  readonly name: string
  readonly signature: string
  /** plain scores (no paired test) or the paired test's rows, in system order */
  readonly cells: ReadonlyArray<number | PairedSystemResult>
}

/** What the paired legend needs: the test and its sample count. */
export interface PairedSettings {
  readonly test: 'bs' | 'ar'
  readonly nSamples: number
}

/** sacrebleu's p-value cell part: 4 decimals, `*` when the difference is significant at 0.05. */
function pValueText(p: number): string {
  return p > 0.05 ? `(p = ${pyFixed(p, 4)})` : `(p = ${pyFixed(p, 4)})*`
}

function cellText(cell: number | PairedSystemResult, width: number): string {
  if (typeof cell === 'number') return pyFixed(cell, width)
  let text = pyFixed(cell.score, width)
  if (cell.mean !== null && cell.ci !== null) text += ` (${pyFixed(cell.mean, width)} ± ${pyFixed(cell.ci, width)})`
  if (cell.pValue !== null) text += `\n${pValueText(cell.pValue)}`
  return text
}

/** sacrebleu's JSON: `[{"system": NAME, METRIC: "20.4" | {score, p_value, mean, ci}, …}, …]` with indent 4. */
function jsonTable(systems: readonly string[], columns: readonly MetricColumn[], width: number): string {
  const rows = systems.map((system, i) => {
    const row: { [key: string]: PyJson } = { system }
    for (const column of columns) {
      const cell = column.cells[i]!
      row[column.name] = typeof cell === 'number' ? pyFixed(cell, width) : { score: cell.score, p_value: cell.pValue, mean: cell.mean, ci: cell.ci }
    }
    return row
  })
  return `${pyJsonDumps(rows, 4)}\n`
}

/** The notes under a paired table (this library's wording). */
function pairedLegend(paired: PairedSettings, baseline: string): string {
  const what = paired.test === 'bs' ? `paired bootstrap resampling, ${paired.nSamples} resamples` : `paired approximate randomization, ${paired.nSamples} trials`
  const rule = '-'.repeat(60)
  return [
    rule,
    `Significance test: ${what}`,
    rule,
    ` - Every system is compared with the baseline (${baseline}).`,
    paired.test === 'bs'
      ? '   Each cell: the corpus score (the bootstrap mean ± the half-width of its 95% interval).'
      : '   Each cell: the corpus score (with --confidence, the bootstrap mean ± 95% interval half-width).',
    ' - p is the estimated chance of a score difference at least this large if the system and the',
    '   baseline came from the same process. p ≤ 0.05 is marked with "*": the difference is unlikely',
    '   to be chance. It says the systems differ, not which one is better.',
    '',
    '',
  ].join('\n')
}

/**
 * The whole multi-system output.
 *
 * @example
 * multiSystemOutput(['a.txt', 'b.txt'], [{ name: 'BLEU', signature: 'nrefs:1|…', cells: [20.4, 30.1] }], 1, 'text')
 */
export function multiSystemOutput(systems: readonly string[], columns: readonly MetricColumn[], width: number, format: 'text' | 'json', paired?: PairedSettings): string {
  if (format === 'json') return jsonTable(systems, columns, width)
  let bootstrap = false
  const headers = ['System']
  for (const column of columns) {
    // sacrebleu's flag stays set for the columns after the first one with intervals
    bootstrap ||= column.cells.some((c) => typeof c !== 'number' && c.mean !== null)
    headers.push(bootstrap ? `${column.name} (μ ± 95% CI)` : column.name)
  }
  const rows = systems.map((system, i) => [system, ...columns.map((column) => cellText(column.cells[i]!, width))])
  let out = `${fancyGrid(headers, rows, ['right', ...columns.map(() => 'center' as const)])}\n\n`
  if (paired) out += pairedLegend(paired, systems[0] ?? '')
  const rule = '-'.repeat(17)
  out += `${rule}\nMetric signatures\n${rule}\n`
  for (const column of columns) out += ` - ${column.name.padEnd(10)} ${column.signature}\n`
  return out
}
