import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Context utilization: for one context passage, did the answer use it (and, given a question, is it relevant)? */
export const contextUtilizationTemplate: JudgeTemplate<'used' | 'usedAndRelevant'> = {
  id: 'context-utilization',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    used: {
      instructions: [
        'Decide whether the ANSWER uses information from the CONTEXT passage.',
        '- "used": true when the answer states something that comes from this passage (in any wording);',
        '- false when nothing in the answer depends on the passage.',
        '"reason" is one short sentence.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"reason": "…", "used": true}.',
      schema: objectSchema({ reason: REASON, used: { type: 'boolean' } }),
    },
    usedAndRelevant: {
      instructions: [
        'Decide two things about the CONTEXT passage.',
        '- "used": true when the ANSWER states something that comes from this passage (in any wording), false otherwise;',
        '- "relevant": true when the passage contains information that helps answer the QUESTION, whether or not the answer used it.',
        '"reason" is one short sentence.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"reason": "…", "used": true, "relevant": true}.',
      schema: objectSchema({ reason: REASON, used: { type: 'boolean' }, relevant: { type: 'boolean' } }),
    },
  },
}
