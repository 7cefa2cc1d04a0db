import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Answer relevance: split the answer into statements and decide whether each addresses the question. */
export const answerRelevanceTemplate: JudgeTemplate<'statements'> = {
  id: 'answer-relevance',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    statements: {
      instructions: [
        'Split the ANSWER into its statements (one idea each, in order) and decide for each whether it addresses the QUESTION.',
        '- "relevant": true when the statement answers the question or gives information needed to understand the answer;',
        '- false when it is off topic, filler, or a refusal or evasion that does not answer.',
        'Do not judge whether statements are true; only whether they address the question. "reason" is one short sentence.',
        'If the answer contains no statement at all, return an empty list.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"statements": [{"statement": "…", "reason": "…", "relevant": true}, …]}.',
      schema: objectSchema({
        statements: {
          type: 'array',
          items: objectSchema({ statement: { type: 'string', minLength: 1 }, reason: REASON, relevant: { type: 'boolean' } }),
        },
      }),
    },
  },
}
