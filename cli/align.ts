/**
 * `rag-matchers align`: does an LLM judge agree with people? The command form of `toAgreeWithHumans`.
 *
 *   rag-matchers align <labels.jsonl|csv> <judged.jsonl> [--dimension D] [--weights none|linear|quadratic]
 *                      [--min-kappa K] [--min-spearman R] [--format text|json]
 *
 * labels: the people's ratings `{ item, rater, dimension?, score }` or pairwise preferences `{ item, rater,
 * a, b, winner }` (loadRatings: JSONL or CSV). judged: the judge's verdicts, one JSON object per line,
 * `{ item, score, reason? }` on the people's scale or `{ item, a, b, winner, reason? }`. Prints what was
 * compared, Cohen's kappa against each item's consensus (linear weights on a numeric scale), Spearman's
 * rho against the mean human score, the people's own Krippendorff alpha, the confusion matrix and every
 * item where judge and people disagree with the judge's reason. Exit codes: 0 done (every bar given is
 * met), 1 usage, 2 input (a file that cannot be read; labels for items the judge did not judge, a label
 * without a rater, fewer than two raters, another scale), 4 a bar not met or its statistic undefined.
 */
import { HumanAlignmentInputError, humanAlignment, loadJudged, type HumanAlignmentDetails } from '../src/agreement/human-alignment.js'
import { alignmentConfusion, alignmentDisagreements, alignmentSummary } from '../src/agreement/human-alignment-text.js'
import type { KappaWeighting } from '../src/agreement/cohen-kappa.js'
import { loadRatings, type Ratings } from '../src/agreement/ratings.js'
import type { Score } from '../src/score.js'
import { formatNumber } from '../src/text/format.js'
import { cannotRead, cliMessage, EXIT, reportFailure, writeOut, type CliIo } from './io.js'

export const ALIGN_USAGE = `usage: rag-matchers align <labels.jsonl|csv> <judged.jsonl> [--dimension D] [--weights none|linear|quadratic] [--min-kappa K] [--min-spearman R] [--format text|json]
  labels: people's ratings { item, rater, dimension?, score } or preferences { item, rater, a, b, winner }
  judged: the judge's verdicts, one per line: { item, score, reason? } or { item, a, b, winner, reason? }
  exit 0: every bar given is met; 4: a bar is not met (or its statistic is undefined); 2: bad input; 1: usage`

interface Parsed {
  readonly files: string[]
  readonly dimension?: string
  readonly weights?: KappaWeighting
  readonly minKappa?: number
  readonly minSpearman?: number
  readonly format: 'text' | 'json'
}

function parseArgs(argv: readonly string[]): Parsed | string {
  const files: string[] = []
  const out: { -readonly [K in keyof Parsed]?: Parsed[K] } = { format: 'text' }
  const bar = (flag: string, value: string | undefined): number | string => {
    const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value)
    return Number.isFinite(n) && n >= -1 && n <= 1 ? n : `${flag} needs a number from -1 to 1, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = () => inline ?? argv[++i]
    if (flag === '--dimension') {
      const v = value()
      if (v === undefined || v === '') return '--dimension needs a name'
      out.dimension = v
    } else if (flag === '--weights') {
      const v = value()
      if (v !== 'none' && v !== 'linear' && v !== 'quadratic') return `--weights must be none, linear or quadratic, got ${JSON.stringify(v ?? '')}`
      out.weights = v
    } else if (flag === '--min-kappa' || flag === '--min-spearman') {
      const n = bar(flag, value())
      if (typeof n === 'string') return n
      if (flag === '--min-kappa') out.minKappa = n
      else out.minSpearman = n
    } else if (flag === '--format') {
      const v = value()
      if (v !== 'text' && v !== 'json') return `--format must be text or json, got ${JSON.stringify(v ?? '')}`
      out.format = v
    } else if (flag.startsWith('-') && flag !== '-') {
      return `unknown option ${flag}`
    } else {
      files.push(arg)
    }
  }
  if (files.length !== 2) return `expected two files (labels, judged), got ${files.length}`
  return { ...(out as Parsed), files }
}

/** The statistics as JSON: NaN as null with its reason. */
function toJson(score: Score<HumanAlignmentDetails>, verdict: { pass: boolean; failures: string[] }): unknown {
  const d = score.details
  const stat = (s: { value: number; reason?: string } | undefined) => (s === undefined ? undefined : Number.isNaN(s.value) ? { value: null, reason: s.reason } : { ...s })
  return {
    signature: score.signature,
    ...d,
    kappa: stat(d.kappa),
    spearman: stat(d.spearman),
    humanAlpha: stat(d.humanAlpha),
    pass: verdict.pass,
    failures: verdict.failures,
  }
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    await writeOut(io.stdout, `${ALIGN_USAGE}\n`)
    return EXIT.ok
  }
  const parsed = parseArgs(argv)
  if (typeof parsed === 'string') return reportFailure(io, 'align', EXIT.usage, `${parsed}\n${ALIGN_USAGE}`)
  const [labelsPath, judgedPath] = parsed.files as [string, string]
  let labels: Ratings
  let judged: Record<string, unknown>[]
  try {
    labels = await loadRatings(labelsPath)
    judged = await loadJudged(judgedPath)
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (typeof e.code === 'string' && typeof e.syscall === 'string') return reportFailure(io, 'align', EXIT.input, cannotRead(e.path ?? '', e))
    if (e.name === 'MetricInputError' || e.name === 'RatingsParseError') return reportFailure(io, 'align', EXIT.input, cliMessage(e))
    throw error
  }
  let score: Score<HumanAlignmentDetails>
  try {
    score = humanAlignment(judged, labels, {
      ...(parsed.dimension === undefined ? {} : { dimension: parsed.dimension }),
      ...(parsed.weights === undefined ? {} : { weights: parsed.weights }),
    })
  } catch (error) {
    if (error instanceof HumanAlignmentInputError) return reportFailure(io, 'align', EXIT.input, `${error.problem} (labels ${labelsPath}, judged ${judgedPath})`)
    throw error
  }
  const d = score.details
  if (parsed.minSpearman !== undefined && d.spearman === undefined) {
    return reportFailure(
      io,
      'align',
      EXIT.usage,
      `--min-spearman needs numeric ratings; these are ${d.kind === 'preferences' ? 'pairwise preferences' : 'labels'}: use --min-kappa`,
    )
  }
  const failures: string[] = []
  const check = (name: string, value: number | undefined, min: number | undefined, reason: string | undefined) => {
    if (min === undefined) return
    if (value === undefined || Number.isNaN(value)) failures.push(`${name} is undefined (${reason ?? '0/0'}), so the bar ${formatNumber(min)} cannot be met`)
    else if (value < min) failures.push(`${name} ${formatNumber(value)} is below the bar ${formatNumber(min)}`)
  }
  check("Cohen's kappa", d.kappa.value, parsed.minKappa, d.kappa.reason)
  check("Spearman's rho", d.spearman?.value, parsed.minSpearman, d.spearman?.reason)
  const pass = failures.length === 0
  if (parsed.format === 'json') {
    await writeOut(io.stdout, `${JSON.stringify(toJson(score, { pass, failures }), null, 2)}\n`)
  } else {
    const verdict =
      parsed.minKappa === undefined && parsed.minSpearman === undefined ? 'no bar given (--min-kappa, --min-spearman)' : pass ? 'every bar met' : failures.join('; ')
    await writeOut(
      io.stdout,
      `${[alignmentSummary(d), alignmentConfusion(d), alignmentDisagreements(d), `signature: ${score.signature}`, `verdict: ${verdict}`].join('\n\n')}\n`,
    )
  }
  return pass ? EXIT.ok : EXIT.evaluation
}
