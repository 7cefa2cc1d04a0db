import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/**
 * Rubric scoring on a fixed integer scale. The schema here is the fixed part; the metric narrows `score`
 * to the rubric's scale (`minimum`/`maximum`) per request, and the scale goes into the signature.
 */
export const rubricTemplate: JudgeTemplate<'score'> = {
  id: 'rubric',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    score: {
      instructions: [
        'Score the ANSWER against the RUBRIC, on the integer SCALE given (the lowest number is the worst).',
        'Use the QUESTION, CONTEXT and REFERENCE items when they are present; the rubric says how they matter.',
        'First give a short "reason" (at most two sentences), then the "score".',
      ].join('\n'),
      reminder: 'Reply with JSON: {"reason": "…", "score": 3}.',
      schema: objectSchema({ reason: REASON, score: { type: 'integer' } }),
    },
  },
}
