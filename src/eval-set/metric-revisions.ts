/**
 * Per-metric implementation revisions: what a baseline compares instead of the package version.
 *
 * A revision is an integer per metric family (keyed by the signature's NAME, `R`, `BLEU`, `ROUGE-L`…)
 * that changes only when that metric's numbers change, with a reason (the "Metric revisions"
 * section of CHANGELOG.md repeats these lines). An upgrade of rag-matchers that changes no metric's
 * numbers therefore changes no baseline identity and never asks for `-u`.
 *
 * Identity signatures: the metric's own signature (every setting that changes a number) without the
 * `version` key, with `rev:N` last, e.g. `R|k:3|empty:zero|dup:first|rev:1`. Baselines written by
 * 0.1.0 carry `version:0.1.0` instead of `rev`; {@link identitySignature} maps that version to the
 * revision each metric had in it, so the settings they record are compared and old files keep working.
 */
import { parseSignature } from '../signature.js'

export interface MetricRevision {
  /** The revision number, from 1. */
  readonly rev: number
  /** The first package version whose numbers are this revision's. */
  readonly since: string
  /** Why the numbers changed (or "first release"). */
  readonly reason: string
}

const FIRST = { rev: 1, since: '0.1.0', reason: 'first release' } as const

/**
 * Revisions per signature name, oldest first. To change a metric's numbers: append a revision here
 * and a line under "Metric revisions" in CHANGELOG.md; every baseline of that metric then asks for `-u`.
 */
export const METRIC_REVISIONS: Readonly<Record<string, readonly MetricRevision[]>> = {
  R: [FIRST],
  P: [FIRST],
  nDCG: [FIRST],
  RR: [FIRST],
  HitRate: [FIRST],
  AP: [FIRST],
  RPrec: [FIRST],
  BLEU: [FIRST],
  chrF: [FIRST],
  'ROUGE-1': [FIRST],
  'ROUGE-2': [FIRST],
  'ROUGE-L': [FIRST],
  'ROUGE-Lsum': [FIRST],
  METEOR: [FIRST],
  TER: [{ rev: 1, since: '0.2.0', reason: 'first release (sacrebleu 2.6 TER)' }],
}

/** Retrieval metrics, whose signatures record the ranking order (`order:given` or `order:score`). */
const RANKED: ReadonlySet<string> = new Set(['R', 'P', 'nDCG', 'RR', 'HitRate', 'AP', 'RPrec'])

/** Revision of metrics the table does not list (a user's own signature): their settings alone identify them. */
const UNLISTED: readonly MetricRevision[] = [FIRST]

/** chrF signatures name the variant (`chrF2`, `chrF2++`, `chrF3+`): one implementation, one revision line. */
function family(name: string): string {
  return /^chrF\d*\+*$/.test(name) ? 'chrF' : name
}

/** Every revision of the metric whose signature name is `name`, oldest first. */
export function metricRevisions(name: string): readonly MetricRevision[] {
  const key = family(name)
  return Object.prototype.hasOwnProperty.call(METRIC_REVISIONS, key) ? (METRIC_REVISIONS[key] as readonly MetricRevision[]) : UNLISTED
}

/**
 * The current revision of the metric whose signature name is `name`.
 * @example currentRevision('BLEU') // 1
 */
export function currentRevision(name: string): MetricRevision {
  const list = metricRevisions(name)
  return list[list.length - 1] as MetricRevision
}

/** `a` < `b` for dotted versions (`0.1.0` < `0.10.0`); non-numeric parts compare as 0. */
function versionBefore(a: string, b: string): boolean {
  const pa = a.split(/[.+-]/).map((x) => Number.parseInt(x, 10) || 0)
  const pb = b.split(/[.+-]/).map((x) => Number.parseInt(x, 10) || 0)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0
    const y = pb[i] ?? 0
    if (x !== y) return x < y
  }
  return false
}

/**
 * The revision a metric had in package version `version` (the newest revision released by then).
 * @example revisionAtVersion('R', '0.1.0').rev // 1
 */
export function revisionAtVersion(name: string, version: string): MetricRevision {
  const list = metricRevisions(name)
  let found = list[0] as MetricRevision
  for (const r of list) if (!versionBefore(version, r.since)) found = r
  return found
}

/** The revision entry numbered `rev` of a metric, if the table lists it. */
export function revisionEntry(name: string, rev: number): MetricRevision | undefined {
  return metricRevisions(name).find((r) => r.rev === rev)
}

/**
 * The identity of a signature for baselines and run comparison: its `version` key removed and
 * `rev:N` last. A signature that already has `rev` keeps it (a baseline written by this version);
 * one with `version:X` (written by 0.1.0) gets the revision the metric had in X; one with neither
 * gets the current revision.
 *
 * @example
 * identitySignature('R|k:3|empty:zero|dup:first|version:0.1.0') // 'R|k:3|empty:zero|dup:first|rev:1'
 */
export function identitySignature(signature: string): string {
  const { name, entries } = parseSignature(signature)
  const parts = signature.split('|')
  const kept = parts.slice(1).filter((p) => !p.startsWith('version:') && !p.startsWith('rev:'))
  let rev: number
  const recorded = entries.get('rev')
  const version = entries.get('version')
  if (recorded !== undefined && /^\d+$/.test(recorded)) rev = Number(recorded)
  else if (version !== undefined && version !== 'var') rev = revisionAtVersion(name, version).rev
  else rev = currentRevision(name).rev
  // 0.1.0 ranked retrieved lists as given without saying so; the signature now says `order:given`
  if (RANKED.has(name) && !entries.has('order')) kept.push('order:given')
  return [parts[0] ?? '', ...kept, `rev:${rev}`].join('|')
}

/**
 * A line for a message when a metric's revision differs between a baseline and now, e.g.
 * `BLEU: revision 1 in the baseline, 2 now (since 0.3.0: 13a tokenizer fix; see "Metric revisions" in CHANGELOG.md)`.
 */
export function describeRevisionChange(name: string, from: string | undefined, to: string | undefined): string {
  const now = to === undefined ? undefined : revisionEntry(name, Number(to))
  const why = now === undefined ? '' : ` (revision ${now.rev} since ${now.since}: ${now.reason}; see "Metric revisions" in CHANGELOG.md)`
  return `${family(name)}: revision ${from ?? '(absent)'} in the baseline, ${to ?? '(absent)'} now${why}`
}
