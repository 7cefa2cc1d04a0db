import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Completeness: list the key points of the source (reference or contexts), then check the answer covers each. */
export const completenessTemplate: JudgeTemplate<'points' | 'cover'> = {
  id: 'completeness',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    points: {
      instructions: [
        'List the key points of the SOURCE that a complete answer must contain. When a QUESTION is given, keep only the points that bear on it.',
        '- A key point is one short, self-contained fact: replace pronouns with what they refer to.',
        '- Leave out details that do not matter for a complete answer, and do not add anything the source does not say.',
        '- If the source contains no such point, return an empty list.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"points": ["…", "…"]}.',
      schema: objectSchema({ points: { type: 'array', items: { type: 'string', minLength: 1 } } }),
    },
    cover: {
      instructions: [
        'For each numbered KEY POINT, decide whether the ANSWER conveys it.',
        '- "covered": the answer states the point or something that clearly entails it;',
        '- "missing": the answer leaves it out, or only gestures at it.',
        'Give exactly one verdict per key point, in order: "point" is the point number and "reason" one short sentence.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"verdicts": [{"point": 1, "reason": "…", "verdict": "covered"}, …]}.',
      schema: objectSchema({
        verdicts: {
          type: 'array',
          items: objectSchema({
            point: { type: 'integer', minimum: 1 },
            reason: REASON,
            verdict: { type: 'string', enum: ['covered', 'missing'] },
          }),
        },
      }),
    },
  },
}
