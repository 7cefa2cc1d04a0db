import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/**
 * Knowledge retention: one question per assistant reply after the first, shown with every earlier turn
 * of the conversation. The reply keeps what was established, or it contradicts or forgets it.
 */
export const knowledgeRetentionTemplate: JudgeTemplate<'retain'> = {
  id: 'knowledge-retention',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    retain: {
      instructions: [
        'The numbered TURN sections are the earlier turns of a conversation between a user and an assistant, in order. LATEST USER is what the user said next and REPLY is the answer of the assistant to it.',
        'Decide whether the REPLY retains what the earlier turns established: facts the user gave about themselves, their situation or their constraints, and facts the assistant stated and the user did not dispute.',
        '- "retained": the reply is consistent with everything established earlier, and uses it where it matters;',
        '- "forgotten": the reply contradicts something established earlier, asks again for information the user already gave, or ignores an established fact that changes the answer.',
        'A reply that does not need any earlier fact is "retained". Judge only from the turns shown. "reason" is one short sentence naming the fact that was kept or lost.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"reason": "…", "verdict": "retained"}.',
      schema: objectSchema({ reason: REASON, verdict: { type: 'string', enum: ['retained', 'forgotten'] } }),
    },
  },
}
