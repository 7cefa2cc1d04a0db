/**
 * The eval-set form of the judge matchers: `await expect(evalSet).toBeGroundedIn(0.8)`. Each case is
 * judged (at most `concurrency` at once), the assertion is on the MEAN, and the message lists every case
 * with its score and the judge's reasons, lowest first. Cases whose pipeline failed follow `failedCases`
 * like the retrieval and generation set matchers; a case the judge could not score fails the assertion
 * with or without `.not`.
 */
import { firstHole } from '../src/dense-array.js'
import { caseLabel, caseName } from '../src/eval-case.js'
import { MetricInputError } from '../src/errors.js'
import { JudgeError, sumUsage, type ContextInput, type Judge } from '../src/judge/index.js'
import { semaphore } from '../src/judge/transport.js'
import type { MatcherContext, MatcherResult } from './context.js'
import type { EmptyMatcherOptions, JudgeMatcherOptions, JudgeSetOptions } from './judge-options.js'

export type { JudgeSetOptions } from './judge-options.js'
import { HOW_TO_CONFIGURE, judgeLine, readOptions, resolveJudge, uncomputable, withTrials, type AnyScore, type OptionKinds, type SpecBase } from './judge-shared.js'
import { decide, readGates, resolveTrials, statisticsOf, trialValues, wantsTrials } from './judge-trials.js'
import { failedCasesMode, failedCasesSection, failedCasesSignature, formatNumber, MAX_ROWS, partialSetResult, quote, table, terminalSafe, type FailedCase } from './message.js'
import { answerCases } from './set-form.js'
import { denseCases, errorText, matcherError, requireThreshold } from './validate.js'

/** Options the eval-set form adds to a judge matcher's own. */

export const DEFAULT_JUDGE_CONCURRENCY = 4

/** What a judge metric reads from a case. */
export type CaseField = 'answer' | 'question' | 'contexts' | 'reference' | 'turns'

/** One case of a received eval set, with the fields the matcher reads. */
export interface JudgeCase {
  /** Its id for reports (the id, else the question, else `#<n>`). */
  readonly id: string
  /** `case q05`, or `received[4]` when it has no id. */
  readonly name: string
  readonly index: number
  readonly answer?: string
  readonly question?: string
  readonly contexts?: readonly ContextInput[]
  readonly reference?: string
  /** A conversation's turns, as given: the conversation judges check them (src/conversation/turns.ts) and name the turn. */
  readonly turns?: readonly unknown[]
}

export interface SetSpec<S extends AnyScore, O extends JudgeMatcherOptions> extends SpecBase<O> {
  /** Fields every case must have. */
  readonly needs: readonly CaseField[]
  /** Fields read when a case has them. */
  readonly wants?: readonly CaseField[]
  readonly compute: (judge: Judge, options: O | undefined, c: JudgeCase) => Promise<S>
  /** The judge's reasons for one case, on one line (what fell short first). */
  readonly reasons: (score: S) => string
}

/** An eval set whose entries are cases, not context chunks: `{ cases }`, or an array of objects none of which has a `text`. */
export function isCaseSet(received: unknown): boolean {
  if (received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases)) return true
  return (
    Array.isArray(received) &&
    received.length > 0 &&
    received.every((c) => c !== null && typeof c === 'object' && !Array.isArray(c) && typeof (c as { text?: unknown }).text !== 'string')
  )
}

const FIELD_SHAPE: Record<CaseField, string> = {
  answer: '`answer` (a string)',
  question: '`question` (a string)',
  contexts: '`contexts` (strings or `{ id?, text }` chunks) or `retrieved` items with `text`',
  reference: '`reference` (a string, or `references` with exactly one)',
  turns: '`turns` (a conversation: an array of `{ user, assistant }`)',
}

function isChunk(c: unknown): boolean {
  return typeof c === 'string' || (c !== null && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string')
}

/** A field of a raw case: its value, `undefined` when absent, or `null` when present but malformed. */
function fieldOf(c: Record<string, unknown>, field: CaseField): unknown {
  if (field === 'turns') return c['turns'] === undefined ? undefined : Array.isArray(c['turns']) ? c['turns'] : null
  if (field === 'answer' || field === 'question') {
    if (c[field] === undefined) return undefined
    return typeof c[field] === 'string' ? c[field] : null
  }
  if (field === 'reference') {
    if (typeof c['reference'] === 'string') return c['reference']
    const refs = c['references']
    if (refs === undefined && c['reference'] === undefined) return undefined
    if (Array.isArray(refs) && refs.length === 1 && typeof refs[0] === 'string') return refs[0]
    return null
  }
  // `every` skips holes, so a sparse list is refused explicitly (firstHole).
  if (c['contexts'] !== undefined) return Array.isArray(c['contexts']) && firstHole(c['contexts']) === -1 && c['contexts'].every(isChunk) ? c['contexts'] : null
  const retrieved = c['retrieved']
  if (retrieved === undefined) return undefined
  if (
    !Array.isArray(retrieved) ||
    firstHole(retrieved) !== -1 ||
    !retrieved.every((r) => r !== null && typeof r === 'object' && typeof (r as { text?: unknown }).text === 'string')
  )
    return null
  return retrieved.map((r: { id?: unknown; text: string }) => (typeof r.id === 'string' || typeof r.id === 'number' ? { id: String(r.id), text: r.text } : { text: r.text }))
}

/** The cases that can be judged and those whose pipeline failed; a case missing a needed field is a Matcher error naming it. */
export function readJudgeSet(
  ctx: MatcherContext,
  matcher: string,
  args: string,
  received: unknown,
  needs: readonly CaseField[],
  wants: readonly CaseField[] = [],
): { cases: JudgeCase[]; failed: FailedCase[]; total: number } {
  const all = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
  if (all.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
  const cases: JudgeCase[] = []
  const failed: FailedCase[] = []
  denseCases(ctx, matcher, args, all).forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      matcherError(ctx, matcher, args, `received[${i}] must be a case with ${needs.map((f) => FIELD_SHAPE[f]).join(' and ')}`, raw)
    }
    const c = raw as Record<string, unknown>
    const name = caseName(c, i)
    const id = caseLabel(c, i)
    const values = new Map(needs.map((f) => [f, fieldOf(c, f)] as const))
    // A failed pipeline left nothing to judge: `error` set and a needed field absent.
    if (c['error'] !== undefined && c['error'] !== null && needs.some((f) => values.get(f) === undefined)) {
      failed.push({ index: i, name, id, error: errorText(c['error']) })
      return
    }
    const where = name === `received[${i}]` ? name : `${name} (received[${i}])`
    const out: { -readonly [K in keyof JudgeCase]: JudgeCase[K] } = { id, name, index: i }
    for (const field of [...needs, ...wants]) {
      const value = values.has(field) ? values.get(field) : fieldOf(c, field)
      const needed = needs.includes(field)
      if (value === undefined && !needed) continue
      if (value === undefined || value === null) {
        const problem = value === undefined ? `has no ${FIELD_SHAPE[field]}` : `has a malformed ${FIELD_SHAPE[field]}`
        matcherError(
          ctx,
          matcher,
          args,
          `${where} ${problem}; ${matcher} over an eval set reads it from each case`,
          c[field === 'contexts' && c['contexts'] === undefined ? 'retrieved' : field],
        )
      }
      // A blank question or reference would be sent to the judge as if it said something.
      if ((field === 'question' || field === 'reference') && (value as string).trim() === '') {
        matcherError(
          ctx,
          matcher,
          args,
          `${where} has a blank \`${field}\` (${(value as string).length === 0 ? 'empty' : 'whitespace only'}); the judge would be asked about nothing`,
          value,
        )
      }
      if (field === 'contexts') out.contexts = value as readonly ContextInput[]
      else if (field === 'turns') out.turns = value as readonly unknown[]
      else out[field] = value as string
    }
    cases.push(out)
  })
  return { cases, failed, total: all.length }
}

type Outcome<S> = { readonly ok: true; readonly score: S } | { readonly ok: false; readonly reason: string; readonly score?: S }

/** `await expect(evalSet).<matcher>(…, min, options?)`: the mean of the per-case scores against `min`. */
export async function runSet<S extends AnyScore, O extends JudgeMatcherOptions>(ctx: MatcherContext, received: unknown, spec: SetSpec<S, O>): Promise<MatcherResult> {
  const { matcher, args, label } = spec
  const min = requireThreshold(ctx, matcher, args, 'min', spec.min, [0, 1], spec.minHint)
  const options = readOptions<O & JudgeSetOptions>(ctx, matcher, args, spec.options, spec.optionKinds as OptionKinds<O & JudgeSetOptions>)
  if (options?.passRate !== undefined) {
    matcherError(ctx, matcher, args, 'options.passRate applies to one answer; over an eval set the assertion is on the mean of the cases', options.passRate)
  }
  const concurrency = options?.concurrency ?? DEFAULT_JUDGE_CONCURRENCY
  if (!(Number.isSafeInteger(concurrency) && concurrency > 0)) matcherError(ctx, matcher, args, 'options.concurrency must be a positive integer', options?.concurrency)
  if (options?.failedCases !== undefined && !['fail', 'zero', 'skip'].includes(options.failedCases)) {
    matcherError(ctx, matcher, args, "options.failedCases must be 'fail' | 'zero' | 'skip'", options.failedCases)
  }
  const mode = failedCasesMode(options)
  const trials = resolveTrials(ctx, matcher, args, options?.repeat, received)
  const gates = readGates(ctx, matcher, args, options ?? {}, trials)
  const { cases, failed, total } = readJudgeSet(ctx, matcher, args, received, spec.needs, spec.wants)
  const judge = resolveJudge(ctx, matcher, args, options)
  if (judge === undefined) return uncomputable(ctx, { matcher, args, label: `mean ${label}` }, 'No judge is configured.', [HOW_TO_CONFIGURE])
  const asked = withTrials(options, trials)

  const limit = semaphore(concurrency)
  const acceptEmpty = (options as EmptyMatcherOptions | undefined)?.empty === 'pass'
  const outcomes = await Promise.all(
    cases.map((c) =>
      limit(async (): Promise<Outcome<S>> => {
        try {
          const score = await spec.compute(judge, asked, c)
          if (Number.isNaN(score.value)) return { ok: false, reason: score.details.note ?? `${label} is undefined for this input`, score }
          if (spec.emptyOption === true && score.details.empty === true && !acceptEmpty) {
            const why = (score.details.note ?? 'there is nothing to judge').replace(/: [^:]*\(empty:\w+\)$/, '')
            return { ok: false, reason: `${why}, so there is nothing to judge (pass { empty: 'pass' } to score it 1)`, score }
          }
          return { ok: true, score }
        } catch (error) {
          // By name too: the ESM and CJS copies of the core each have their own classes.
          const name = (error as Error | undefined)?.name
          if (error instanceof JudgeError || name === 'JudgeError') return { ok: false, reason: (error as Error).message }
          if (error instanceof MetricInputError || name === 'MetricInputError') matcherError(ctx, matcher, args, `${c.name}: ${(error as Error).message}`)
          throw error
        }
      }),
    ),
  )
  const scores = outcomes.map((o) => o.score).filter((s): s is S => s !== undefined)
  const calls = {
    total: scores.reduce((a, s) => a + s.details.calls.total, 0),
    cached: scores.reduce((a, s) => a + s.details.calls.cached, 0),
    keys: [],
    ...withUsage(sumUsage(scores.map((s) => s.details.calls.usage))),
  }
  const signature = scores[0] === undefined ? undefined : failedCasesSignature(scores[0].signature, mode, failed.length)

  const unscored = outcomes.flatMap((o, i) => (o.ok ? [] : [{ name: (cases[i] as JudgeCase).name, reason: o.reason }]))
  if (unscored.length > 0) {
    const lines = unscored.slice(0, MAX_ROWS).map((u) => `  ${terminalSafe(u.name)}: ${terminalSafe(u.reason)}`)
    if (unscored.length > MAX_ROWS) lines.push(`  … and ${unscored.length - MAX_ROWS} more`)
    return uncomputable(
      ctx,
      { matcher, args, label: `mean ${label}` },
      `the judge could not score ${unscored.length} of ${cases.length} ${cases.length === 1 ? 'case' : 'cases'}:\n${lines.join('\n')}`,
      // the calls of the cases that failed are not known, so no count that would undercount
      [judgeLine(judge)],
      signature,
    )
  }

  const perCase = cases.map((c, i) => {
    const score = (outcomes[i] as { score: S }).score
    return { id: c.id, value: score.value, note: spec.reasons(score) }
  })
  if (mode === 'zero') for (const f of failed) perCase.push({ id: f.id, value: 0, note: 'pipeline failed (scored 0)' })
  const n = perCase.length
  const value = n === 0 ? 0 : perCase.reduce((a, c) => a + c.value, 0) / n
  const left = failed.length === 0 || mode === 'fail' ? '' : mode === 'skip' ? ` (${failed.length} failed left out)` : ` (${failed.length} failed scored 0)`
  const result = partialSetResult(ctx, {
    matcher,
    args,
    label: `mean ${label} over ${n} ${n === 1 ? 'case' : 'cases'}${left}`,
    metric: `mean ${label}`,
    value,
    min,
    signature: signature ?? '',
    sections: () => [caseTable(perCase, min, ctx.isNot === true), judgeLine(judge, { calls })],
    ...answerCases(perCase, failed, total, mode, n),
  })
  if (result.meta === undefined) return result
  const plain: MatcherResult = {
    ...result,
    meta: {
      ...result.meta,
      extra: {
        ...result.meta.extra,
        calls: calls.total,
        cached: calls.cached,
        ...(calls.usage === undefined ? {} : { usage: calls.usage }),
        reasons: Object.fromEntries(perCase.map((c) => [c.id, c.note])),
      },
    },
  }
  // Failed pipeline cases decide on their own (failedCases); trials judge the scored cases only.
  if (!wantsTrials(trials, gates) || cases.length === 0 || (failed.length > 0 && mode === 'fail')) return plain
  const stats = statisticsOf(
    cases.map((c, i) => ({ id: c.id, values: trialValues((outcomes[i] as { score: S }).score) })),
    min,
  )
  // the pipeline cases left out or scored 0 (failedCases 'skip' or 'zero') stay in the message the gates write
  const sections = () => [failedCasesSection(failed, total, 'answer', mode), caseTable(perCase, min, ctx.isNot === true), judgeLine(judge, { calls })]
  return decide(ctx, plain, { matcher, args, label: `${label}`, min, signature: signature ?? '', seed: judge.seed, sections }, stats, trials, gates)
}

function withUsage<U>(usage: U | undefined): { usage?: U } {
  return usage === undefined ? {} : { usage }
}

/** Every case with its score and the judge's reasons: lowest first (`.not`: those at or above min, highest first). */
function caseTable(rows: ReadonlyArray<{ id: string; value: number; note: string }>, min: number, isNot: boolean): string {
  const indexed = rows.map((r, i) => ({ ...r, i }))
  const shown = isNot ? indexed.filter((r) => r.value >= min).sort((a, b) => b.value - a.value || a.i - b.i) : indexed.sort((a, b) => a.value - b.value || a.i - b.i)
  const heading = isNot
    ? `per case: ${shown.length} of ${rows.length} at or above ${formatNumber(min)} (highest first)`
    : `per case: ${rows.filter((r) => r.value < min).length} of ${rows.length} below ${formatNumber(min)} (lowest first)`
  return `${heading}\n${table(shown.map((r) => [r.id, formatNumber(r.value, min), r.note]))}`
}

/** `2 of 3 claims unsupported: "…" — "reason" …`: how many items fell short and the first with its reason; `allOk` when none did. */
export function shortfall(failing: ReadonlyArray<{ text: string; reason: string }>, total: number, heading: string, allOk: string): string {
  const first = failing[0]
  if (first === undefined) return allOk
  return `${failing.length} of ${total} ${heading}: ${quote(first.text, 60)} — ${quote(first.reason, 80)}${failing.length > 1 ? ' …' : ''}`
}
