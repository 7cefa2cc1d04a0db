import { EVALUATOR_SYSTEM, objectSchema, REASON, type JudgeTemplate } from './template.js'

/**
 * Conversation completeness: list what the user asked for across the turns, then decide for each
 * request whether the assistant's replies addressed it.
 */
export const conversationCompletenessTemplate: JudgeTemplate<'requests' | 'addressed'> = {
  id: 'conversation-completeness',
  revision: 1,
  system: EVALUATOR_SYSTEM,
  steps: {
    requests: {
      instructions: [
        'The numbered USER sections are what a user said to an assistant, turn by turn. List the requests the user made across the conversation: each question asked or task the user wanted done.',
        '- One request per item, self-contained: replace pronouns with what they refer to, and merge a request with its later refinements.',
        '- Leave out greetings, thanks and statements that ask for nothing.',
        '- If the user asked for nothing, return an empty list.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"requests": ["…", "…"]}.',
      schema: objectSchema({ requests: { type: 'array', items: { type: 'string', minLength: 1 } } }),
    },
    addressed: {
      instructions: [
        'The numbered REQUEST sections are what the user asked for in the conversation shown in the TURN sections (each with the message of the user and the reply of the assistant).',
        'For each request, decide whether the replies of the assistant, taken together, addressed it.',
        '- "addressed": a reply answers the question or does the task, or explains why it cannot;',
        '- "unaddressed": no reply answers it, or the replies only gesture at it.',
        'Give exactly one verdict per request, in order: "request" is the request number and "reason" one short sentence.',
      ].join('\n'),
      reminder: 'Reply with JSON: {"verdicts": [{"reason": "…", "request": 1, "verdict": "addressed"}, …]}.',
      schema: objectSchema({
        verdicts: {
          type: 'array',
          items: objectSchema({
            reason: REASON,
            request: { type: 'integer', minimum: 1 },
            verdict: { type: 'string', enum: ['addressed', 'unaddressed'] },
          }),
        },
      }),
    },
  },
}
