import type { ConversationTurn } from './conversation/turns.js'
import type { RetrievalCase } from './retrieval/types.js'

/**
 * One case of an eval set, as the set matchers take it: retrieval fields, generation fields, or both.
 * A case whose pipeline failed carries `error` instead, and fails every set assertion that needs it.
 */
export interface EvalCase extends Partial<RetrievalCase> {
  readonly id?: string | number
  readonly question?: string
  readonly answer?: string
  readonly reference?: string
  readonly references?: readonly string[]
  readonly contexts?: readonly string[]
  readonly error?: unknown
  /** How many times runEvalSet called the pipeline for this case (1 + the retries it used). */
  readonly attempts?: number
  /**
   * A conversation (src/conversation/turns.ts): per-turn matchers score every turn as its own case
   * (named `<id> turn <n>`), the conversation judges read the turns in order.
   */
  readonly turns?: readonly ConversationTurn[]
}

/** The references of a case: `references` when given, else `[reference]`, else none. */
export function caseReferences(c: EvalCase): readonly string[] | undefined {
  if (Array.isArray(c.references)) return c.references
  if (typeof c.reference === 'string') return [c.reference]
  return undefined
}

/** A label for a case in messages and reports: its id, its question, or its position. */
export function caseLabel(c: unknown, index: number): string {
  if (c !== null && typeof c === 'object') {
    const { id, question } = c as { id?: unknown; question?: unknown }
    if (typeof id === 'string' || typeof id === 'number') return String(id)
    if (typeof question === 'string') return question
  }
  return `#${index + 1}`
}

/**
 * How a message names a case: `case q05` by its id, or `received[4]` (its position in the received
 * set) when it has none. Unlike {@link caseLabel} it never uses the question, which can be long.
 */
export function caseName(c: unknown, index: number): string {
  if (c !== null && typeof c === 'object') {
    const { id } = c as { id?: unknown }
    if (typeof id === 'string' || typeof id === 'number') return `case ${String(id)}`
  }
  return `received[${index}]`
}

/** Whether a case's pipeline failed and left no `field` to score (`error` set, `field` absent). */
export function isFailedCase(c: unknown, field: 'retrieved' | 'answer'): boolean {
  if (c === null || typeof c !== 'object') return false
  const r = c as Record<string, unknown>
  return r.error !== undefined && r.error !== null && (field === 'answer' ? typeof r.answer !== 'string' : r.retrieved === undefined)
}
