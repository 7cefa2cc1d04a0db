// The run reader's fast path and the batch-by-batch file evaluation, each against the straightforward path:
// parseRun against a field-splitting reference written from trec_eval's rules, and evaluateTrecFile against
// evaluateTrec on the whole run, on random runs with every layout the exact path exists for.
import fc from 'fast-check'
import { afterAll } from 'vitest'
import { atof } from '../../../../src/retrieval/trec/bytes.js'
import { evaluateTrecFile } from '../../../../src/retrieval/trec/evaluate-file.js'
import { evaluateTrec, parseQrels, parseRun, type TrecEvalOptions } from '../../../../src/retrieval/trec/index.js'
import { tempFiles } from '../../../cli/temp-files.js'

const files = tempFiles('rag-trec-file-')
afterAll(() => files.cleanup())

// C isspace without \n: what trec_eval splits fields on
const BLANKS = /[ \t\v\f\r]+/
const separator = fc.constantFrom(' ', ' ', ' ', '  ', '\t', ' \t', '\v', '\f', '\r ')
const scoreText = fc.oneof(
  fc.constantFrom('1', '-2.5', '21.701', '+3', '1e-3', '0x1p3', '.5', '5.', '1234567890123456', 'inf', 'nan', '-0', '007', 'abc', '1.2.3', '3,5'),
  fc.double({ min: -100, max: 100, noNaN: true }).map(String),
  fc.integer({ min: 0, max: 30 }).map(String),
)
const docnoText = fc.constantFrom('d1', 'd2', 'D10', 'é', 'x#1', 'a\u0001b', '0', 'q-7', 'dup')
const qidText = fc.constantFrom('1', '2', '10', 'q', 'Q\u0002')
const lineEnd = fc.constantFrom('\n', '\n', '\r\n', ' \n', ' junk after run_id\n')
const runLine = fc
  .record({
    lead: fc.constantFrom('', '', '', ' ', '\t'),
    qid: qidText,
    docno: docnoText,
    score: scoreText,
    seps: fc.array(separator, { minLength: 5, maxLength: 5 }),
    runId: fc.constantFrom('r', 'run-b', 'x\u0003'),
    end: lineEnd,
  })
  .map(({ lead, qid, docno, score, seps, runId, end }) => `${lead}${qid}${seps[0]}Q0${seps[1]}${docno}${seps[2]}1${seps[3]}${score}${seps[4]}${runId}${end}`)
const otherLine = fc.constantFrom('\n', '  \n', '# a comment\n', ' #x y z\n', '\r\n')
const runText = fc.array(fc.oneof({ weight: 8, arbitrary: runLine }, { weight: 1, arbitrary: otherLine }), { maxLength: 30 }).map((lines) => lines.join(''))

/** trec_eval's run-line rules, written plainly: fields on C whitespace, `#` comments, atof scores, last run_id. */
function referenceRun(text: string) {
  const topics = new Map<string, { docnos: string[]; scores: number[] }>()
  let runId = ''
  for (const line of text.split('\n')) {
    const fields = line
      .replace(/^[ \t\v\f\r]+/, '')
      .split(BLANKS)
      .filter((f) => f !== '')
    if (fields.length === 0 || (fields[0] as string).startsWith('#')) continue
    const [qid, , docno, , sim, id] = fields as [string, string, string, string, string, string]
    const topic = topics.get(qid) ?? { docnos: [], scores: [] }
    topics.set(qid, topic)
    topic.docnos.push(docno)
    topic.scores.push(atof(sim))
    runId = id
  }
  return { topicIds: [...topics.keys()], topics, runId }
}

describe('the run reader (fast path for the usual layout, exact path for the rest)', () => {
  it('reads every line as the field-splitting reference does', () => {
    fc.assert(
      fc.property(runText, (text) => {
        const run = parseRun(text)
        const expected = referenceRun(text)
        expect(run.topicIds).toEqual(expected.topicIds)
        expect(run.runId).toBe(expected.runId)
        for (const [qid, t] of expected.topics) {
          expect(run.docnos(qid)).toEqual(t.docnos)
          expect([...run.topicScores(qid)]).toEqual(t.scores)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('names the malformed line whichever path reads it', () => {
    for (const bad of ['1 Q0 d1 1 2.5\n', '1\tQ0 d1 1 2.5\n', '1 Q0 d1 1\r\n']) {
      expect(() => parseRun(`1 Q0 d0 1 3 r\n${bad}`, { source: 'bad.run' })).toThrow(/bad\.run line 2/)
    }
  })
})

interface Topic {
  qid: string
  docs: Array<{ docno: string; score: number }>
  judged: Array<{ docno: string; rel: number }>
}

const qids = ['1', '2', '10', 'q', 'z9', '301']
const topicArb = fc.record({
  qid: fc.constantFrom(...qids),
  docs: fc.array(fc.record({ docno: fc.constantFrom('a', 'b', 'c', 'd10', 'd2', 'é', 'x'), score: fc.constantFrom(0, 0.5, 1, 2.25, -1, 1e-7) }), {
    minLength: 1,
    maxLength: 8,
  }),
  judged: fc.uniqueArray(fc.record({ docno: fc.constantFrom('a', 'b', 'c', 'd10', 'never'), rel: fc.integer({ min: -1, max: 2 }) }), {
    selector: (j) => j.docno,
    maxLength: 4,
  }),
})
const MEASURES = ['official', 'relstring', 'ndcg_cut.3', 'P.2', 'num_ret']

/** The ordinary path's outcome: the table, or the error's class, message and fields. */
function outcome(f: () => unknown): unknown {
  try {
    return { table: f() }
  } catch (error) {
    const e = error as Error & { code?: string; topic?: string; docno?: string }
    return { error: [e.constructor.name, e.message, e.code, e.topic, e.docno] }
  }
}

async function outcomeAsync(f: () => Promise<unknown>): Promise<unknown> {
  try {
    return { table: await f() }
  } catch (error) {
    const e = error as Error & { code?: string; topic?: string; docno?: string }
    return { error: [e.constructor.name, e.message, e.code, e.topic, e.docno] }
  }
}

describe('evaluateTrecFile (batches of whole topics)', () => {
  it('reads an empty run and a run of comments as evaluateTrec does, with and without completeTopics', async () => {
    const qrels = parseQrels('1 0 a 1\n2 0 b 0\n')
    for (const text of ['', '# only a comment\n\n  \n']) {
      const path = files.write(`empty-${text.length}.txt`, text)
      for (const completeTopics of [false, true]) {
        const expected = outcome(() => evaluateTrec(qrels, parseRun(text), MEASURES, { completeTopics }, 'f'))
        expect(await outcomeAsync(() => evaluateTrecFile(qrels, path, MEASURES, { completeTopics }, { fn: 'f' }))).toEqual(expected)
      }
    }
  })

  it('gives evaluateTrec’s table or error on random runs, contiguous or not, with small batches', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(topicArb, { selector: (t) => t.qid, minLength: 1, maxLength: 5 }),
        fc.uniqueArray(fc.constantFrom(...qids), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.array(separator, { minLength: 1, maxLength: 3 }),
        async (topics: Topic[], judgedQids, completeTopics, interleave, batchDocs, seps) => {
          const lines = topics.flatMap((t) => t.docs.map((d, i) => `${t.qid}${seps[i % seps.length]}Q0 ${d.docno} ${i + 1} ${d.score} run-${t.qid}\n`))
          // interleaving moves every other line to the end: topics resume after others (the fallback path)
          const ordered = interleave ? [...lines.filter((_, i) => i % 2 === 0), ...lines.filter((_, i) => i % 2 === 1)] : lines
          const text = ordered.join('')
          const qrelsText = topics
            .filter((t) => judgedQids.includes(t.qid))
            .flatMap((t) => t.judged.map((j) => `${t.qid} 0 ${j.docno} ${j.rel}`))
            .concat(judgedQids.map((q) => `${q} 0 judged-${q} 1`))
            .join('\n')
          const qrels = parseQrels(qrelsText)
          const options: TrecEvalOptions = { completeTopics }
          const path = files.write(`run-${n++}.txt`, text)
          const expected = outcome(() => evaluateTrec(qrels, parseRun(text, { source: path }), MEASURES, options, 'f'))
          const actual = await outcomeAsync(() => evaluateTrecFile(qrels, path, MEASURES, options, { fn: 'f', batchDocs }))
          expect(actual).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('reports a malformed line with its line number, and an empty qrels or a bad measure as evaluateTrec does', async () => {
    const qrels = parseQrels('1 0 a 1\n2 0 b 1\n')
    const good = Array.from({ length: 40 }, (_, i) => `${i < 20 ? 1 : 2} Q0 d${i} ${i} ${40 - i} r\n`).join('')
    const path = files.write('malformed.txt', `${good}2 Q0 d99 1\n`)
    await expect(evaluateTrecFile(qrels, path, ['map'], {}, { batchDocs: 4 })).rejects.toThrow(/line 41/)
    const fine = files.write('fine.txt', good)
    const ordinary = (measures: string[]) => outcome(() => evaluateTrec(parseQrels(''), parseRun(good), measures, {}, 'evaluateTrecFile'))
    expect(await outcomeAsync(() => evaluateTrecFile(parseQrels(''), fine, ['map']))).toEqual(ordinary(['map']))
    expect(await outcomeAsync(() => evaluateTrecFile(qrels, fine, ['no_such_measure']))).toEqual(
      outcome(() => evaluateTrec(qrels, parseRun(good), ['no_such_measure'], {}, 'evaluateTrecFile')),
    )
  })
})
