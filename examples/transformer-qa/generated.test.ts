// Retrieval on the generated eval set (data/generated.jsonl: `npm run example -- --generate` writes it
// from the committed replay cache, see testset/README.md), next to the hand-made set of retrieval.test.ts.
// Its ground truth was checked when it was generated: `relevant` is every passage containing the keyword.
import { existsSync } from 'node:fs'
import { loadDataset } from '../../src/index.js'
import { bm25Retriever, loadPassages } from './pipeline.js'
import { GENERATED_SET } from './testset/generate.js'

const present = existsSync(GENERATED_SET)
const items = present ? loadDataset(GENERATED_SET) : []
const retrieve = bm25Retriever(loadPassages())
const cases = items.map((item) => ({ ...item, retrieved: retrieve(item.question, 5).map((r) => r.id) }))
// Unanswerable questions have no relevant passage by design: retrieval assertions leave them out.
const answerable = cases.filter((c) => c.kind !== 'unanswerable')
const unanswerable = cases.filter((c) => c.kind === 'unanswerable')

describe.skipIf(!present)('retrieval on the generated eval set (data/generated.jsonl)', () => {
  it('holds every kind, each answerable question with at least one relevant passage', () => {
    expect(new Set(items.map((i) => i.kind))).toEqual(new Set(['factual', 'numeric', 'multi-chunk', 'unanswerable']))
    for (const c of answerable) expect([c.id, (c.relevant as readonly string[]).length > 0]).toEqual([c.id, true])
  })

  it('set-level metrics over the answerable questions', () => {
    expect(answerable).toHaveHitRateAtK(5, 0.9)
    expect(answerable).toHaveRecallAtK(5, 0.9)
    expect(answerable).toHaveMrrAbove(0.85)
    expect(answerable).toHaveNdcgAtK(5, 0.85)
  })

  it('each unanswerable question asks for a detail no passage mentions (its keyword is in none)', () => {
    const passages = loadPassages().map((p) => p.text.toLowerCase())
    expect(unanswerable.length).toBeGreaterThan(0)
    for (const c of unanswerable) expect([c.id, c.relevant, passages.some((text) => text.includes(String(c.keyword).toLowerCase()))]).toEqual([c.id, [], false])
  })
})
