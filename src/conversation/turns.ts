/**
 * Conversations (issue #31): a case may be a conversation `{ turns: [{ user, assistant, retrieved?,
 * relevant?, contexts?, reference? }] }`. The per-turn metrics (retrieval, lexical, judge) score each
 * turn as its own case; the conversation judges (knowledge retention, conversation completeness) read
 * the turns in order. This module holds the shape and its checks; it computes nothing.
 */
import { MetricInputError } from '../errors.js'
import { firstHole, holeProblem } from '../dense-array.js'
import { isPlainObject } from '../options.js'
import type { Id, RetrievedItem } from '../retrieval/types.js'

/** One exchange: what the user said and what the assistant answered, with that turn's retrieval and ground truth. */
export interface ConversationTurn {
  readonly user: string
  readonly assistant: string
  readonly retrieved?: readonly RetrievedItem[]
  readonly relevant?: readonly Id[] | Readonly<Record<string, number>>
  readonly contexts?: readonly (string | { readonly id?: string; readonly text: string })[]
  readonly reference?: string
  readonly references?: readonly string[]
}

/** A conversation case: its turns in order (at least one). */
export interface Conversation {
  readonly id?: string | number
  readonly turns: readonly ConversationTurn[]
}

/** Whether a value is meant as a conversation: an object (not an array) with a `turns` key that is set. */
export function isConversation(value: unknown): value is { readonly turns: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { turns?: unknown }).turns !== undefined
}

/** How messages name turn `index` (0-based) of `turns`: `turns[2] (turn 3)`. */
export function turnPath(where: string, index: number): string {
  return `${where}[${index}] (turn ${index + 1})`
}

/**
 * The turns of a conversation, checked: a non-empty dense array of plain objects, each with a string
 * `user` and a string `assistant` (empty strings are the metric's business, not a shape error).
 * The optional fields are checked by the metric that reads them.
 *
 * @example readTurns('knowledgeRetention', 'turns', [{ user: 'Hi, I am Ana.', assistant: 'Hello Ana!' }]) // the same array
 * @throws MetricInputError naming the turn (`turns[2] (turn 3).assistant`) for anything else
 */
export function readTurns(fn: string, where: string, turns: unknown): ConversationTurn[] {
  if (!Array.isArray(turns) || turns.length === 0) {
    throw new MetricInputError(fn, where, 'a non-empty array of turns `{ user, assistant }` (a conversation with no turns has nothing to score)', turns)
  }
  const hole = firstHole(turns)
  if (hole >= 0) throw new MetricInputError(fn, turnPath(where, hole), `a turn \`{ user, assistant }\` (${holeProblem(where, hole)})`, undefined)
  return turns.map((turn: unknown, i) => {
    const at = turnPath(where, i)
    if (!isPlainObject(turn)) throw new MetricInputError(fn, at, 'a turn `{ user, assistant }`', turn)
    if (typeof turn.user !== 'string') throw new MetricInputError(fn, `${at}.user`, "a string (the user's message)", turn.user)
    if (typeof turn.assistant !== 'string') throw new MetricInputError(fn, `${at}.assistant`, "a string (the assistant's answer)", turn.assistant)
    return turn as unknown as ConversationTurn
  })
}
