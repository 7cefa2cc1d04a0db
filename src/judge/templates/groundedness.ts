import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/** Groundedness (faithfulness): split the answer into claims, then check each claim against the contexts. */
export const groundednessTemplate: JudgeTemplate<'claims' | 'verify'> = {
  id: 'groundedness',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    claims: {
      instructions: [
        'Break the ANSWER into atomic factual claims.',
        '- A claim is one short, self-contained statement that can be checked on its own: replace pronouns with what they refer to, and split sentences that say several things.',
        '- Keep the meaning of the answer; do not add, correct or judge anything.',
        '- Skip greetings, questions, hedges and statements that the answerer does not know something.',
        '- If the answer makes no factual claim, return an empty list.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"claims": ["…", "…"]}.',
      schema: objectSchema({ claims: { type: 'array', items: { type: 'string', minLength: 1 } } }),
    },
    verify: {
      instructions: [
        'For each numbered CLAIM, decide whether the numbered CONTEXT passages support it. Use only the passages, not your own knowledge.',
        '- "supported": a passage states the claim or directly implies it;',
        '- "contradicted": a passage states something incompatible with the claim;',
        '- "not_found": the passages do not settle it.',
        'Give exactly one verdict per claim, in the order of the claims: "claim" is the claim number, "reason" one short sentence, ' +
          '"context" the number of the passage that supports or contradicts the claim (0 for not_found).',
      ].join('\n'),
      reminder: 'Reply with JSON: {"verdicts": [{"claim": 1, "reason": "…", "verdict": "supported", "context": 2}, …]}.',
      schema: objectSchema({
        verdicts: {
          type: 'array',
          items: objectSchema({
            claim: { type: 'integer', minimum: 1 },
            reason: REASON,
            verdict: { type: 'string', enum: ['supported', 'contradicted', 'not_found'] },
            context: { type: 'integer', minimum: 0 },
          }),
        },
      }),
    },
  },
}
