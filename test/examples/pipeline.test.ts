// The example pipeline's model-free logic: the dense retriever (with deterministic bag-of-words vectors
// from functionEmbedder), retriever selection and the live-answers switch. Runs offline.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { functionEmbedder, MetricInputError } from '../../src/index.js'
import {
  BM25_LABEL,
  bm25Retriever,
  denseRetriever,
  loadAnswers,
  loadExample,
  loadPassages,
  loadRecordedAnswers,
  requestedRetriever,
  retrieveEvalSet,
  type Passage,
} from '../../examples/transformer-qa/pipeline.js'

const tokens = (text: string): string[] => text.toLowerCase().match(/[a-z0-9_]+/g) ?? []

/** Counts of each vocabulary word: a transparent embedder whose cosines can be worked out by hand. */
function bagOfWords(vocabulary: readonly string[]) {
  const calls: string[][] = []
  const embedder = functionEmbedder(
    (text) => {
      const counts = tokens(text)
      return vocabulary.map((word) => counts.filter((t) => t === word).length)
    },
    { id: `bow|vocab:${vocabulary.length}` },
  )
  // Record each embed() batch, to check what is embedded when.
  return {
    calls,
    embedder: {
      id: embedder.id,
      embed: (texts: string[]) => {
        calls.push(texts)
        return embedder.embed(texts)
      },
    },
  }
}

describe('denseRetriever', () => {
  // Titles are all "t", so each passage vector gets one count of "t" besides its text.
  const passages: Passage[] = [
    { id: 'a', title: 't', text: 'cats cats cats' },
    { id: 'b', title: 't', text: 'dogs' },
    { id: 'c', title: 't', text: 'cats dogs' },
  ]
  const vocabulary = ['cats', 'dogs', 't']

  it('ranks by cosine between the question and title + text, best first, with the cosines as scores', async () => {
    const { embedder } = bagOfWords(vocabulary)
    const top = await denseRetriever(passages, embedder)('cats', 3)
    // q = (1,0,0); a = (3,0,1) → 3/√10; c = (1,1,1) → 1/√3; b = (0,1,1) → 0
    expect(top.map((r) => r.id)).toEqual(['a', 'c', 'b'])
    expect(top[0]!.score).toBeCloseTo(3 / Math.sqrt(10), 6)
    expect(top[1]!.score).toBeCloseTo(1 / Math.sqrt(3), 6)
    expect(top[2]!.score).toBe(0)
    expect(top.map((r) => r.text)).toEqual(['cats cats cats', 'cats dogs', 'dogs'])
  })

  it('returns the top k (default 5) and changes with the question', async () => {
    const { embedder } = bagOfWords(vocabulary)
    const retrieve = denseRetriever(passages, embedder)
    // q = (0,1,0); b = (0,1,1) → 1/√2 beats c = (1,1,1) → 1/√3; a → 0
    expect((await retrieve('dogs', 2)).map((r) => r.id)).toEqual(['b', 'c'])
    expect(await retrieve('dogs')).toHaveLength(3)
  })

  it('keeps corpus order on ties and ranks an undefined cosine (zero vector) last', async () => {
    const tied: Passage[] = [
      { id: 'zero', title: '', text: 'nothing known here' },
      { id: 'first', title: 'x', text: 'cats' },
      { id: 'second', title: 'x', text: 'cats' },
    ]
    const { embedder } = bagOfWords(['cats', 'x'])
    const top = await denseRetriever(tied, embedder)('cats', 3)
    expect(top.map((r) => r.id)).toEqual(['first', 'second', 'zero'])
    expect(top[2]!.score).toBe(Number.NEGATIVE_INFINITY)
  })

  it('embeds the passages once, in one batch, and each new question once', async () => {
    const { embedder, calls } = bagOfWords(vocabulary)
    const retrieve = denseRetriever(passages, embedder)
    await retrieve('cats')
    await retrieve('dogs')
    await retrieve('cats')
    const passageBatches = calls.filter((batch) => batch.length === 3)
    expect(passageBatches).toEqual([['t. cats cats cats', 't. dogs', 't. cats dogs']])
    expect(calls.filter((batch) => batch.length === 1)).toEqual([['cats'], ['dogs']])
  })

  it('rejects bad arguments with MetricInputError naming them', async () => {
    const { embedder } = bagOfWords(vocabulary)
    expect(() => denseRetriever('x' as never, embedder)).toThrow(MetricInputError)
    expect(() => denseRetriever(passages, {} as never)).toThrow(/Expected `embedder`/)
    await expect(denseRetriever(passages, embedder)('cats', 0)).rejects.toThrow(/Expected `k` to be a positive integer/)
    await expect(denseRetriever(passages, embedder)(42 as never)).rejects.toThrow(/Expected `question` to be a string/)
  })
})

describe('retriever selection', () => {
  it('reads RAG_MATCHERS_RETRIEVER: dense only when asked, case-insensitively', () => {
    expect(requestedRetriever({})).toBe('bm25')
    expect(requestedRetriever({ RAG_MATCHERS_RETRIEVER: 'dense' })).toBe('dense')
    expect(requestedRetriever({ RAG_MATCHERS_RETRIEVER: ' Dense ' })).toBe('dense')
    expect(requestedRetriever({ RAG_MATCHERS_RETRIEVER: 'bm25' })).toBe('bm25')
  })

  it('dense over the example corpus with a bag-of-words embedder: names the retriever and ranks by shared words', async () => {
    const passages = loadPassages()
    const vocabulary = [...new Set(passages.flatMap((p) => tokens(`${p.title}. ${p.text}`)))]
    const { embedder } = bagOfWords(vocabulary)
    const run = await loadExample({ retriever: 'dense', embedder })
    expect(run.retrieverKind).toBe('dense')
    expect(run.retriever).toBe(`dense (cosine, embedder bow|vocab:${vocabulary.length})`)
    expect(run.note).toBeUndefined()
    expect(run.cases).toHaveLength(8)
    for (const c of run.cases) {
      expect(c.retrieved).toHaveLength(5)
      expect(c.contexts).toEqual(c.retrieved.map((r) => r.text))
      // Scores are cosines, best first.
      const scores = c.retrieved.map((r) => r.score)
      expect(scores).toEqual([...scores].sort((x, y) => y - x))
    }
    // The same ranking, worked out independently for one question: the cosine of count vectors.
    const question = run.cases.find((c) => c.id === 'layers')!.question
    const vec = (text: string) => vocabulary.map((w) => tokens(text).filter((t) => t === w).length)
    const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0) / Math.hypot(...a) / Math.hypot(...b)
    const q = vec(question)
    const expected = passages
      .map((p, i) => ({ id: p.id, i, score: cos(q, vec(`${p.title}. ${p.text}`)) }))
      .sort((x, y) => y.score - x.score || x.i - y.i)
      .slice(0, 5)
      .map((r) => r.id)
    expect(run.cases.find((c) => c.id === 'layers')!.retrieved.map((r) => r.id)).toEqual(expected)
  })

  it('falls back to BM25 when dense is requested without an embedder, and says why', async () => {
    const run = await retrieveEvalSet({ retriever: 'dense', embedderReason: 'no embedding model (test)' })
    expect(run.retrieverKind).toBe('bm25')
    expect(run.retriever).toBe(BM25_LABEL)
    expect(run.note).toBe(`dense retrieval requested but no embedding model (test); using ${BM25_LABEL}`)
    // Same results as the synchronous BM25 path.
    const retrieve = bm25Retriever(run.passages)
    run.evalSet.forEach((item, i) => expect(run.results[i]).toEqual(retrieve(item.question, 5)))
  })
})

describe('answers for the run', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rag-example-answers-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('uses the recording unless RAG_MATCHERS_EXAMPLE_LIVE=1', () => {
    const { answers, source } = loadAnswers({}, join(dir, 'none.json'))
    expect(answers).toEqual(loadRecordedAnswers())
    expect(source).toBe('recorded (data/answers.json)')
  })

  it('reads the live file in live mode, and says how to create it when it is missing', async () => {
    const file = join(dir, 'answers.live.json')
    expect(() => loadAnswers({ RAG_MATCHERS_EXAMPLE_LIVE: '1' }, file)).toThrow(/does not exist: generate it with `npm run example -- --live`/)
    await writeFile(file, JSON.stringify({ model: 'm:1b', answers: { heads: 'Eight.' } }))
    expect(loadAnswers({ RAG_MATCHERS_EXAMPLE_LIVE: '1' }, file)).toEqual({ answers: { heads: 'Eight.' }, source: `live (${file}, model m:1b)` })
  })
})
