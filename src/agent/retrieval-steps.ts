/**
 * Retrieval inside an agent: a case may carry several retrieval steps (`steps: [{ query, retrieved }]`),
 * one per search the agent made. The retrieval metrics score the union of the steps in first-seen order
 * (`'union'`, the default), the last step (`'last'`), or each step as its own query (`'each'`).
 */
import { MetricInputError } from '../errors.js'
import { firstHole, holeProblem } from '../dense-array.js'
import { isPlainObject } from '../options.js'
import type { RetrievedItem } from '../retrieval/types.js'

export type StepsMode = 'union' | 'each' | 'last'
export const STEPS_MODES: readonly StepsMode[] = ['union', 'each', 'last']

/** One search an agent made: the query it sent (for messages) and what came back, ranked. */
export interface RetrievalStep {
  readonly query?: string
  readonly retrieved: readonly RetrievedItem[]
}

/** A ranking a case with steps stands for; `step` (0-based) and `query` for `'each'`. */
export interface StepRanking {
  readonly retrieved: RetrievedItem[]
  readonly step?: number
  readonly query?: string
}

function idOf(item: unknown): unknown {
  return item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : item
}

/**
 * The rankings `steps` stands for under `mode`:
 * - `'union'`: every step's retrieved items in one list, in the order they were first seen (step by step,
 *   each step in its own order); a later copy of an id is left out, so an id found twice ranks where it
 *   was first found.
 * - `'last'`: the last step's list (what the agent answered from, when it refines its query).
 * - `'each'`: one ranking per step, to be scored as separate queries.
 *
 * @example retrievalFromSteps('f', 'case', [{ retrieved: ['a', 'b'] }, { retrieved: ['b', 'c'] }], 'union') // [{ retrieved: ['a', 'b', 'c'] }]
 * @throws MetricInputError naming the step, for steps that are not a non-empty array of `{ query?, retrieved }`, a hole, or a retrieved list that is not an array
 */
export function retrievalFromSteps(fn: string, where: string, steps: unknown, mode: StepsMode): StepRanking[] {
  if (!Array.isArray(steps) || steps.length === 0) throw new MetricInputError(fn, `${where}.steps`, 'a non-empty array of retrieval steps `{ query, retrieved }`', steps)
  const hole = firstHole(steps)
  if (hole >= 0) throw new MetricInputError(fn, `${where}.steps[${hole}]`, `a retrieval step (${holeProblem(`${where}.steps`, hole)})`, undefined)
  const read = steps.map((raw: unknown, i) => {
    const at = `${where}.steps[${i}]`
    if (!isPlainObject(raw)) throw new MetricInputError(fn, at, 'a retrieval step `{ query, retrieved }`', raw)
    if (!Array.isArray(raw.retrieved)) throw new MetricInputError(fn, `${at}.retrieved`, 'an array of ids or `{ id }` objects', raw.retrieved)
    const h = firstHole(raw.retrieved)
    if (h >= 0) throw new MetricInputError(fn, `${at}.retrieved[${h}]`, `an id or an \`{ id }\` object (${holeProblem(`${at}.retrieved`, h)})`, undefined)
    if (raw.query !== undefined && typeof raw.query !== 'string') throw new MetricInputError(fn, `${at}.query`, 'a string', raw.query)
    return { retrieved: raw.retrieved as RetrievedItem[], query: raw.query as string | undefined }
  })
  if (mode === 'last') return [{ retrieved: [...(read[read.length - 1] as { retrieved: RetrievedItem[] }).retrieved] }]
  if (mode === 'each') return read.map((s, step) => ({ retrieved: [...s.retrieved], step, ...(s.query === undefined ? {} : { query: s.query }) }))
  // Items whose id cannot be read are kept as they are: the ranking core refuses them, naming them.
  const seen = new Set<unknown>()
  const union: RetrievedItem[] = []
  for (const s of read) {
    for (const item of s.retrieved) {
      const id = idOf(item)
      if (typeof id === 'string' || typeof id === 'number') {
        if (seen.has(id)) continue
        seen.add(id)
      }
      union.push(item)
    }
  }
  return [{ retrieved: union }]
}
