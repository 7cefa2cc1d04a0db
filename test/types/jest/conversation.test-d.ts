// Type tests for conversations under @types/jest (issue #31): compiled by `npm run test:types`, never executed.
import { expectTypeOf } from 'expect-type'
import '../../../runners/jest.js'

const conversation = {
  id: 'c1',
  turns: [{ user: 'Where is it?', assistant: 'In Paris.', retrieved: ['d1'], relevant: ['d1'], contexts: ['It is in Paris.'], reference: 'In Paris.' }],
}
const set = [conversation, { id: 'q2', retrieved: ['d1'], relevant: ['d1'] }]

// per turn: a conversation takes the eval-set form (threshold and options only)
expect(conversation).toHaveRecallAtK(2, 0.8)
expect(conversation).toScoreBleuAbove(30, { failedCases: 'skip' })
expect(conversation).toScoreRougeAbove(0.5)
expect(set).toHaveMrrAbove(0.5)
// whole conversations
void expect(conversation).toRetainKnowledge(0.9, { empty: 'pass' })
void expect(conversation).not.toCompleteConversation(0.5)
void expect([conversation]).toCompleteConversation(0.8, { concurrency: 2, failedCases: 'zero' })
expectTypeOf(expect(conversation).toRetainKnowledge(1)).resolves.toBeVoid()

// @ts-expect-error a conversation has no references argument: each turn carries its reference
expect(conversation).toScoreBleuAbove('In Paris.', 30)
// @ts-expect-error min is a number
void expect(conversation).toRetainKnowledge('high')
// @ts-expect-error a string is no conversation
void expect('hello').toCompleteConversation(0.5)
