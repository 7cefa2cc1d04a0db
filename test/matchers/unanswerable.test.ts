// Runs under Vitest AND Jest (globals only). A generated unanswerable question (rag-matchers/testset:
// kind 'unanswerable', relevant []) in a retrieval assertion: a Matcher error that says what the item is
// and where it belongs, with or without .not; never a silent 0 or NaN.
import { parseDataset } from '../../src/eval-set/load-dataset.js'
import { failureOf } from '../helpers/failure.js'

const jsonl = [
  '{"id":"factual-c1","question":"Which reactor powers the station?","keyword":"Helios Core","relevant":["c1"],"reference":"Helios Core.","kind":"factual","source":["c1"]}',
  '{"id":"unanswerable-c2","question":"Who designed the cooling loop?","keyword":"cooling loop","relevant":[],"reference":"The corpus does not answer this question.","kind":"unanswerable","source":["c2"]}',
].join('\n')
const items = parseDataset(jsonl, { format: 'jsonl' })
/** The cases a pipeline run makes of the items: each item with its ranking. */
const cases = items.map((item) => ({ ...item, retrieved: ['c1', 'c2'] }))

describe('an unanswerable item in a retrieval assertion', () => {
  it('loadDataset reads it as it is: relevant [] and its kind', () => {
    expect(items[1]).toMatchObject({ id: 'unanswerable-c2', kind: 'unanswerable', relevant: [] })
  })

  it.each([
    ['a set', () => expect(cases).toHaveRecallAtK(2, 0.5)],
    ['a set, .not', () => expect(cases).not.toHaveRecallAtK(2, 0.5)],
    ['one case', () => expect(cases[1]).toHitWithin(2)],
    ['one case, .not', () => expect(cases[1]).not.toHaveNdcgAtK(2, 0.5)],
  ])('%s: a Matcher error naming the item, its kind and where it belongs', (_name, run) => {
    const message = failureOf(run)
    expect(message).toContain('Matcher error:')
    expect(message).toContain('at least one relevant id')
    expect(message).toContain("unanswerable question (kind 'unanswerable')")
    expect(message).toContain("filter on `kind !== 'unanswerable'`")
    expect(message).not.toContain('NaN')
  })

  it('the set names the item', () => {
    expect(failureOf(() => expect(cases).toHaveMrrAbove(0.5))).toContain('unanswerable-c2')
  })

  it('the documented path: the answerable items are asserted on, the unanswerable ones left out', () => {
    const answerable = cases.filter((c) => c.kind !== 'unanswerable')
    expect(answerable).toHaveRecallAtK(2, 1)
    expect(answerable.map((c) => ({ ...c, retrieved: ['c2'] }))).not.toHaveRecallAtK(1, 0.5)
  })

  it('an empty ground truth without the kind keeps the plain message', () => {
    const message = failureOf(() => expect({ retrieved: ['a'], relevant: [] }).toHitWithin(1))
    expect(message).toContain('at least one relevant id')
    expect(message).not.toContain('unanswerable')
  })
})
