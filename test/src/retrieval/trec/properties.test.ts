// Properties of the TREC reader and evaluator on random qrels/runs (fast-check): what trec_eval's definition
// implies without any reference numbers.
import fc from 'fast-check'
import { parseQrels, parseRun, parseRunStream, trecEval } from '../../../../src/retrieval/trec/index.js'

interface Line {
  qid: string
  docno: string
  score: number
}

const docno = fc.constantFrom('a', 'b', 'c', 'd10', 'd2', 'D1', 'é', 'z', '\u{1F600}', 'x#1', 'q-7', '0')
const topic = fc.record({
  qid: fc.constantFrom('1', '2', '10', 'q'),
  // few distinct scores, so that ties are common
  docs: fc.uniqueArray(fc.record({ docno, score: fc.constantFrom(0, 0.5, 1, 1.5, 2, -1) }), { selector: (d) => d.docno, minLength: 1, maxLength: 10 }),
  judged: fc.array(fc.record({ docno, rel: fc.integer({ min: -1, max: 3 }) }), { maxLength: 8 }),
})
const collection = fc.uniqueArray(topic, { selector: (t) => t.qid, minLength: 1, maxLength: 4 })

type Collection = Array<{ qid: string; docs: Array<{ docno: string; score: number }>; judged: Array<{ docno: string; rel: number }> }>

function texts(c: Collection) {
  const runLines: Line[] = c.flatMap((t) => t.docs.map((d) => ({ qid: t.qid, docno: d.docno, score: d.score })))
  const qrels = c
    .flatMap((t) => {
      const seen = new Set<string>()
      return t.judged.filter((j) => !seen.has(j.docno) && seen.add(j.docno)).map((j) => `${t.qid} 0 ${j.docno} ${j.rel}`)
    })
    .join('\n')
  return { runLines, qrels: qrels || `${c[0]?.qid} 0 never-retrieved 1` }
}

const runText = (lines: Line[]) => lines.map((l, i) => `${l.qid} Q0 ${l.docno} ${i + 1} ${l.score} r`).join('\n')
const MEASURES = ['all_trec', 'dcg', 'ideal_dcg']

describe('trecEval properties', () => {
  it('does not depend on the order of the run lines (trec_eval sorts them itself)', () => {
    fc.assert(
      fc.property(collection, fc.integer(), (c, seed) => {
        const { runLines, qrels } = texts(c)
        const shuffled = [...runLines].sort((a, b) => hash(a.qid + a.docno, seed) - hash(b.qid + b.docno, seed))
        const q = parseQrels(qrels)
        const a = trecEval(q, parseRun(runText(runLines)), MEASURES, { completeTopics: true })
        const b = trecEval(q, parseRun(runText(shuffled)), MEASURES, { completeTopics: true })
        expect(b).toEqual(a)
      }),
      { numRuns: 150 },
    )
  })

  it('ranks ties by docno descending in byte order: same values as distinct scores in that order', () => {
    fc.assert(
      fc.property(collection, (c) => {
        const { runLines, qrels } = texts(c)
        // the ranking written out explicitly, with Buffer.compare as the independent strcmp
        const ranked = [...runLines].sort((x, y) => x.qid.localeCompare(y.qid) || y.score - x.score || Buffer.compare(Buffer.from(y.docno), Buffer.from(x.docno)))
        const explicit = ranked.map((l, i) => ({ ...l, score: ranked.length - i }))
        const q = parseQrels(qrels)
        const a = trecEval(q, parseRun(runText(runLines)), MEASURES, { completeTopics: true })
        const b = trecEval(q, parseRun(runText(explicit)), MEASURES, { completeTopics: true })
        expect(b).toEqual(a)
      }),
      { numRuns: 150 },
    )
  })

  it('parses the same run from any chunking of its bytes', async () => {
    await fc.assert(
      fc.asyncProperty(collection, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 50 }), async (c, cuts) => {
        const text = `\uFEFF${runText(texts(c).runLines).replace(/\n/g, '\r\n')}\r\n`
        const bytes = new TextEncoder().encode(text)
        const chunks: Uint8Array[] = []
        for (let p = 0, k = 0; p < bytes.length; k += 1) {
          const size = cuts[k % cuts.length] as number
          chunks.push(bytes.slice(p, p + size))
          p += size
        }
        const whole = parseRun(text)
        const streamed = await parseRunStream(chunks)
        expect(streamed.topicIds).toEqual(whole.topicIds)
        for (const qid of whole.topicIds) {
          expect(streamed.docnos(qid)).toEqual(whole.docnos(qid))
          expect(streamed.topicScores(qid)).toEqual(whole.topicScores(qid))
        }
      }),
      { numRuns: 100 },
    )
  })

  it('-M n scores like a run cut to its top n documents', () => {
    fc.assert(
      fc.property(collection, fc.integer({ min: 1, max: 6 }), (c, n) => {
        const { runLines, qrels } = texts(c)
        const ranked = [...runLines].sort((x, y) => x.qid.localeCompare(y.qid) || y.score - x.score || Buffer.compare(Buffer.from(y.docno), Buffer.from(x.docno)))
        const perTopic = new Map<string, number>()
        const top = ranked.filter((l) => {
          const k = perTopic.get(l.qid) ?? 0
          perTopic.set(l.qid, k + 1)
          return k < n
        })
        const q = parseQrels(qrels)
        const a = trecEval(q, parseRun(runText(runLines)), MEASURES, { completeTopics: true, maxRetrieved: n })
        const b = trecEval(q, parseRun(runText(top)), MEASURES, { completeTopics: true })
        expect(a).toEqual(b)
      }),
      { numRuns: 150 },
    )
  })

  it('counts retrieved, relevant and relevant retrieved as a plain count over the judgments does, at any level', () => {
    fc.assert(
      fc.property(collection, fc.integer({ min: -2, max: 3 }), fc.boolean(), (c, level, judgedOnly) => {
        const { runLines, qrels } = texts(c)
        const q = parseQrels(qrels)
        const res = trecEval(q, parseRun(runText(runLines)), ['num_ret', 'num_rel', 'num_rel_ret'], { completeTopics: true, relevanceLevel: level, judgedOnly })
        for (const [qid, topic] of q.topics) {
          // judgments with a value < 0 are "in the pool, unjudged": never relevant, and kept by -J only when ≥ 0
          const value = new Map(topic.docnos.map((d, i) => [d, topic.rels[i] as number]))
          const retrieved = runLines.filter((l) => l.qid === qid)
          const kept = judgedOnly ? retrieved.filter((l) => (value.get(l.docno) ?? -1) >= 0) : retrieved
          const isRel = (v: number | undefined) => v !== undefined && v >= 0 && v >= level
          expect(res.perQuery[qid]).toEqual({
            // (a topic without results ranks trec_eval's one bogus docno, and -c then reports 0 retrieved)
            num_ret: kept.length,
            num_rel: topic.rels.filter((v) => isRel(v)).length,
            num_rel_ret: kept.filter((l) => isRel(value.get(l.docno))).length,
          })
        }
      }),
      { numRuns: 300 },
    )
  })
})

function hash(text: string, seed: number): number {
  let h = seed | 0
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) as number), 0x9e3779b1)
  return h
}
