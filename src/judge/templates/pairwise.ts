import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Pairwise preference: which of two answers better answers the question (asked in both orders by the metric). */
export const pairwiseTemplate: JudgeTemplate<'compare'> = {
  id: 'pairwise',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    compare: {
      instructions: [
        'Two answers to the QUESTION follow: FIRST ANSWER and SECOND ANSWER. Decide which one answers it better.',
        'Judge correctness, completeness and relevance to the question, following the CRITERIA when they are given. ' +
          'Ignore length and style unless the criteria say otherwise, and do not favour an answer for its position.',
        '"winner" is "first", "second", or "tie" when neither is better. "reason" is one short sentence.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"reason": "…", "winner": "first"}.',
      schema: objectSchema({ reason: REASON, winner: { type: 'string', enum: ['first', 'second', 'tie'] } }),
    },
  },
}
