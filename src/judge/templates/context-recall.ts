import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Context recall: split the reference answer into statements, then ask which the contexts account for. */
export const contextRecallTemplate: JudgeTemplate<'statements' | 'attribute'> = {
  id: 'context-recall',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    statements: {
      instructions: [
        'Break the REFERENCE answer into atomic statements.',
        '- A statement is one short, self-contained fact that can be checked on its own: replace pronouns with what they refer to, and split sentences that say several things.',
        '- Keep the meaning of the reference; do not add, correct or judge anything.',
        '- If the reference states no fact, return an empty list.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"statements": ["…", "…"]}.',
      schema: objectSchema({ statements: { type: 'array', items: { type: 'string', minLength: 1 } } }),
    },
    attribute: {
      instructions: [
        'For each numbered STATEMENT of a reference answer, decide whether it can be attributed to the numbered CONTEXT passages, i.e. whether someone who read only the passages could state it. Use only the passages, not your own knowledge.',
        '- "attributed": a passage states it or directly implies it;',
        '- "not_attributed": no passage does.',
        'Give exactly one verdict per statement, in order: "statement" is the statement number, "reason" one short sentence, ' +
          '"context" the number of the passage it comes from (0 for not_attributed).',
      ].join('\n'),
      reminder: 'Reply with JSON: {"verdicts": [{"statement": 1, "reason": "…", "verdict": "attributed", "context": 1}, …]}.',
      schema: objectSchema({
        verdicts: {
          type: 'array',
          items: objectSchema({
            statement: { type: 'integer', minimum: 1 },
            reason: REASON,
            verdict: { type: 'string', enum: ['attributed', 'not_attributed'] },
            context: { type: 'integer', minimum: 0 },
          }),
        },
      }),
    },
  },
}
