// The two-step pattern of groundedness, context recall and completeness: the judge first lists the
// items of a text (claims, statements, key points), then gives one numbered verdict per item.
import type { PromptSection } from '../prompt.js'
import type { JudgeTemplate } from '../templates/template.js'
import { byNumber, contextRef, contextSections, numberedProblems, type CallRecorder, type EmptyPolicy, type JudgeContext, type RunResult } from './shared.js'

/**
 * The list step. Its reply is `{ <step>: string[] }` (each template names the list after the step:
 * `claims`, `statements`, `points`), and the list is what this returns.
 */
export async function extractItems(recorder: CallRecorder, template: JudgeTemplate, step: string, sections: readonly PromptSection[], seed: number): Promise<string[]> {
  const reply = await recorder.ask<Record<string, string[]>>(template, step, sections, seed)
  return reply[step] as string[]
}

/**
 * A run whose input yielded no item: 1 under `'vacuous'`, NaN under `'nan'`, with a note
 * `<why>: <outcome> (empty:<policy>)` so a message can say which convention applied.
 */
export function emptyRun<D extends object>(
  onEmpty: EmptyPolicy,
  details: D,
  why: string,
  outcome: { readonly vacuous: string; readonly nan: string },
): RunResult<D & { note: string }> {
  return onEmpty === 'vacuous'
    ? { value: 1, details: { ...details, note: `${why}: ${outcome.vacuous} (empty:vacuous)` } }
    : { value: Number.NaN, details: { ...details, note: `${why}: ${outcome.nan} (empty:nan)` } }
}

/**
 * A verdict step: which template step asks it, and how the items are shown and numbered
 * (`{ label: 'CLAIM', key: 'claim' }` → sections `CLAIM 1`…, verdicts `{ claim: 1, … }`).
 */
export interface VerdictStep {
  readonly template: JudgeTemplate
  readonly step: string
  readonly label: string
  readonly key: string
}

/**
 * Asks `v` about the items: the items as numbered sections followed by `after`, a reply `{ verdicts: [...] }`
 * with exactly one verdict per item (checked by {@link numberedProblems}, `context` too when `contextCount`
 * is given; problems go back to the model on retry), returned in item order, each with its item's text.
 */
export async function verdictPerItem<V extends Record<string, unknown>>(
  recorder: CallRecorder,
  v: VerdictStep,
  seed: number,
  items: readonly string[],
  after: readonly PromptSection[],
  contextCount?: number,
): Promise<Array<{ item: string; reply: V }>> {
  const reply = await recorder.ask<{ verdicts: V[] }>(v.template, v.step, [...items.map((text, i) => ({ label: `${v.label} ${i + 1}`, text })), ...after], seed, (r) =>
    numberedProblems(r.verdicts, v.key, items.length, contextCount),
  )
  return byNumber(reply.verdicts, v.key).map((r) => ({ item: items[(r[v.key] as number) - 1] as string, reply: r }))
}

/** One item judged against the contexts, with the passage its verdict names (null when it names none). */
export interface ItemAttribution<Verdict extends string> {
  readonly item: string
  readonly verdict: Verdict
  readonly contextIndex: number | null
  readonly contextId: string | null
  readonly reason: string
}

/** A verdict step against the contexts, and what its verdicts mean. */
export interface ContextVerdictStep<Verdict extends string> extends VerdictStep {
  /** The verdict every item gets, without a call, when there is no context; and the reason and note then. */
  readonly none: Verdict
  readonly noContextReason: string
  readonly noContextNote: string
  /** Whether a verdict names the passage in the reply's `context` (else the reference is null). */
  readonly namesPassage: (verdict: Verdict) => boolean
}

/**
 * The verdict step against the numbered `CONTEXT` passages, for items checked against retrieved text
 * (groundedness, context recall). With no context at all no call is made, since asking would only
 * invite the model to use its own knowledge: every item gets `v.none`, and the note says why.
 */
export async function attributeToContexts<Verdict extends string>(
  recorder: CallRecorder,
  v: ContextVerdictStep<Verdict>,
  seed: number,
  items: readonly string[],
  contexts: readonly JudgeContext[],
): Promise<{ judged: Array<ItemAttribution<Verdict>>; note?: string }> {
  if (contexts.length === 0) {
    return {
      judged: items.map((item) => ({ item, verdict: v.none, contextIndex: null, contextId: null, reason: v.noContextReason })),
      note: v.noContextNote,
    }
  }
  type Reply = { reason: string; verdict: Verdict; context: number } & Record<string, unknown>
  const verdicts = await verdictPerItem<Reply>(recorder, v, seed, items, contextSections(contexts), contexts.length)
  return {
    judged: verdicts.map(({ item, reply }) => ({
      item,
      verdict: reply.verdict,
      ...(v.namesPassage(reply.verdict) ? contextRef(contexts, reply.context) : { contextIndex: null, contextId: null }),
      reason: reply.reason,
    })),
  }
}
