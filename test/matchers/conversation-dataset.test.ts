// Runs under Vitest AND Jest (globals only). Conversations in an eval-set file (#31): loadDataset reads
// JSONL and JSON items with `turns`, checks every turn naming it (file, line, `turns[i].field`), and the
// per-turn matchers take the loaded set as it is.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadDataset, parseDataset } from '../../src/eval-set/load-dataset.js'
import { failureOf } from '../helpers/failure.js'

const LINES = [
  JSON.stringify({
    id: 'c1',
    turns: [
      { user: 'Where is the Eiffel Tower?', assistant: 'In Paris.', retrieved: ['d1', 'd9'], relevant: ['d1'], reference: 'It is in Paris.' },
      { user: 'How tall is it?', assistant: 'About 330 metres.', retrieved: ['d9'], relevant: { d2: 2 }, reference: 'It is about 330 metres tall.' },
    ],
  }),
  JSON.stringify({ id: 'q2', question: 'Capital of France?', retrieved: ['d4'], relevant: ['d4'] }),
]

const dir = mkdtempSync(join(tmpdir(), 'rag-matchers-conversation-dataset-'))
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('loadDataset with conversations', () => {
  it('reads a JSONL conversation, giving it its first user message as question', () => {
    const file = join(dir, 'chats.jsonl')
    writeFileSync(file, `${LINES.join('\n')}\n`)
    const items = loadDataset(file)
    expect(items[0]?.question).toBe('Where is the Eiffel Tower?')
    expect(items[0]?.turns).toHaveLength(2)
    // recall@1 over turns and cases: 1, 0, 1
    expect(items).toHaveRecallAtK(1, 2 / 3)
    expect(items).not.toHaveRecallAtK(1, 0.7)
    expect(failureOf(() => expect(items).toHaveRecallAtK(1, 0.9))).toMatch(/c1 turn 2\s+0/)
  })

  it('reads a JSON array of conversations', () => {
    const items = parseDataset(`[${LINES[0]}]`, { format: 'json', source: 'chats.json' })
    expect(items[0]?.turns?.[1]?.user).toBe('How tall is it?')
  })

  const bad: Array<[string, unknown, RegExp]> = [
    ['no turns', { id: 'c1', turns: [] }, /chats\.jsonl line 1: Expected `turns` to be a non-empty array of turns/],
    ['a turn without user', { id: 'c1', turns: [{ user: 'Hi', assistant: 'Hello' }, { assistant: 'Yes' }] }, /Expected `turns\[1\]\.user` to be a non-empty string/],
    ['a turn that is not an object', { id: 'c1', turns: ['Hi'] }, /Expected `turns\[0\]` to be a turn/],
    ['a bad grade', { id: 'c1', turns: [{ user: 'Hi', relevant: { d1: 'high' } }] }, /Expected `turns\[0\]\.relevant\.d1` to be a finite number/],
    ['contexts that are not strings', { id: 'c1', turns: [{ user: 'Hi', contexts: [1] }] }, /Expected `turns\[0\]\.contexts\[0\]` to be a string/],
  ]
  it.each(bad)('refuses %s, naming the line and the turn', (_, item, problem) => {
    expect(() => parseDataset(JSON.stringify(item), { format: 'jsonl', source: 'chats.jsonl' })).toThrow(problem)
  })

  it('refuses turns in a CSV row', () => {
    expect(() => parseDataset('id,question,turns\nc1,Hi,"[]"\n', { format: 'csv', source: 'chats.csv' })).toThrow(
      /`turns` to be absent: a conversation is a JSON or JSONL item/,
    )
  })
})
