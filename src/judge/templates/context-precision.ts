import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Context precision: for one retrieved passage, was it useful for reaching the reference answer? */
export const contextPrecisionTemplate: JudgeTemplate<'relevance'> = {
  id: 'context-precision',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    relevance: {
      instructions: [
        'A retrieval system returned the CONTEXT passage for the QUESTION. The REFERENCE is a correct answer to the question.',
        'Decide whether the passage is useful for arriving at the reference answer:',
        '- "relevant": true when the passage contains information the reference answer relies on;',
        '- false when it is off topic, or on topic but of no help for this answer.',
        '"reason" is one short sentence.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"reason": "…", "relevant": true}.',
      schema: objectSchema({ reason: REASON, relevant: { type: 'boolean' } }),
    },
  },
}
