import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MetricInputError } from '../../src/errors.js'
import { parseDataset } from '../../src/eval-set/load-dataset.js'
import { judgeCache } from '../../src/judge/cache.js'
import { JudgeError } from '../../src/judge/errors.js'
import { functionJudge } from '../../src/judge/function-judge.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../src/judge/openai-judge.js'
import { evalSetToJsonl, generateEvalSet, REJECTION_REASONS, type GeneratedEvalSet } from '../../src/testset/public.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js'
import { serverPerTest } from '../helpers/scripted-server.js'
import { CORPUS, ollamaWriter, openaiWriter, TIMEOUT_MS } from './scripted-writer.js'

const chunks = CORPUS.map(({ id, text }) => ({ id, text }))
/** Every chunk is asked once: n = the corpus, the two chunks with digits numeric, the rest factual. */
const everyChunk = { chunks, n: CORPUS.length, seed: 1, kinds: { factual: CORPUS.length - 2, numeric: 2 } }

/** The rejection each scripted chunk must land in, counted from the script itself. */
function expectedRejections(): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0]))
  for (const c of CORPUS) if (c.expect !== 'kept' && c.expect !== 'kept or near-duplicate') counts[c.expect] = (counts[c.expect] as number) + 1
  // c01 and c08 ask the same question: whichever is checked second is the near-duplicate.
  counts['near-duplicate'] = 1
  return counts
}

function checkRejectionTable(set: GeneratedEvalSet): void {
  expect(set.summary.rejected).toEqual(expectedRejections())
  const keptIds = set.items.flatMap((item) => item.source)
  const mustKeep = CORPUS.filter((c) => c.expect === 'kept').map((c) => c.id)
  expect(keptIds.filter((id) => id !== 'c01' && id !== 'c08').sort()).toEqual(mustKeep)
  // Exactly one of the two near-duplicates survives.
  expect(keptIds.filter((id) => id === 'c01' || id === 'c08')).toHaveLength(1)
  // No rejected chunk's question reaches the output.
  for (const r of set.rejected) expect(keptIds).not.toContain(r.source[0])
  for (const r of set.rejected) expect(CORPUS.find((c) => c.id === r.source[0])?.expect).toContain(r.reason)
  const rejectedCount = Object.values(expectedRejections()).reduce((a, b) => a + b, 0)
  expect(set.summary).toMatchObject({ requested: 13, generated: 13, kept: CORPUS.length - rejectedCount, complete: false, corpusChunks: 13 })
  expect(set.items).toHaveLength(mustKeep.length + 1)
  expect(set.summary.kinds).toEqual({
    factual: { requested: 11, kept: 3 },
    numeric: { requested: 2, kept: 1 },
    'multi-chunk': { requested: 0, kept: 0 },
    unanswerable: { requested: 0, kept: 0 },
  })
}

function checkGroundTruth(set: GeneratedEvalSet): void {
  const byId = new Map(set.items.map((item) => [item.source[0], item]))
  // The keyword is stored as the chunk spells it (line break kept); relevance ignores the break.
  expect(byId.get('c02')).toMatchObject({ kind: 'numeric', keyword: '48 docking\nbays', relevant: ['c02'], reference: 'It has 48 of them.' })
  // A fact written in two chunks has two relevant ids.
  const reactor = byId.get('c01')
  if (reactor !== undefined) expect(reactor.relevant).toEqual(['c01', 'c13'])
  expect(byId.get('c13')?.relevant).toEqual(['c13'])
  // loadDataset reads the file as it is, and keeps every field.
  const parsed = parseDataset(evalSetToJsonl(set.items), { format: 'jsonl' })
  expect(parsed).toEqual(set.items.map((item) => ({ ...item })))
  const covered = new Set(set.items.flatMap((item) => item.relevant))
  expect(set.summary.chunksCovered).toBe(covered.size)
}

describe('generateEvalSet over a fake Ollama server', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  it('lands each bad reply in its rejection count, never in the output', async () => {
    fake.on('/api/chat', () => true, ollamaWriter())
    const set = await generateEvalSet({ ...everyChunk, judge: ollamaJudge({ model: 'llama3.1:8b', host: fake.host, timeoutMs: TIMEOUT_MS, retries: 1 }) })
    checkRejectionTable(set)
    checkGroundTruth(set)
    // The malformed reply was asked again once (retries: 1) with the problem shown, then rejected.
    const vault = fake.requests.filter((r) => JSON.stringify(r.body).includes('vault under the hub'))
    expect(vault).toHaveLength(2)
    expect(vault[1]?.body.messages.at(-1).content).toContain('did not match the required JSON schema')
  })

  it('sends the JSON schema, temperature and seed of the judge', async () => {
    fake.on('/api/chat', () => true, ollamaWriter())
    await generateEvalSet({ chunks: chunks.slice(11), n: 2, kinds: ['factual'], judge: ollamaJudge({ model: 'm', host: fake.host, temperature: 0.3, seed: 9 }) })
    expect(fake.requests).toHaveLength(2)
    for (const req of fake.requests) {
      expect(req.body.options).toEqual({ temperature: 0.3, seed: 9 })
      expect(Object.keys(req.body.format.properties).sort()).toEqual(['answer', 'keyword', 'question'])
    }
  })

  it('regenerates a byte-identical file from the recorded cache with no model', async () => {
    fake.on('/api/chat', () => true, ollamaWriter())
    const dir = await mkdtemp(join(tmpdir(), 'rag-testset-'))
    try {
      const recorded = await generateEvalSet({
        ...everyChunk,
        judge: ollamaJudge({ model: 'llama3.1:8b', host: fake.host, timeoutMs: TIMEOUT_MS, retries: 0, cache: judgeCache({ dir, mode: 'readwrite' }) }),
      })
      const asked = fake.requests.length
      // Nothing listens on port 9 of 127.0.0.1: any request would fail the run.
      const replayJudge = () => ollamaJudge({ model: 'llama3.1:8b', host: 'http://127.0.0.1:9', retries: 0, cache: judgeCache({ dir, mode: 'replay' }) })
      const replayed = await generateEvalSet({ ...everyChunk, judge: replayJudge() })
      const again = await generateEvalSet({ ...everyChunk, judge: replayJudge() })
      expect(fake.requests).toHaveLength(asked)
      expect(evalSetToJsonl(replayed.items)).toBe(evalSetToJsonl(recorded.items))
      expect(evalSetToJsonl(again.items)).toBe(evalSetToJsonl(recorded.items))
      expect(recorded.items.length).toBe(4)
      // The three questions that failed at the model were not recorded: replayed, they are rejected again, as not recorded.
      const r = recorded.summary.rejected
      expect(replayed.summary.rejected).toEqual({ ...r, malformed: 0, refusal: 0, timeout: 0, 'not-recorded': r.malformed + r.refusal + r.timeout })
      // The summary is committed: a miss names the cache key, not the cache folder of this machine.
      const misses = replayed.rejected.filter((q) => q.reason === 'not-recorded')
      expect(misses).toHaveLength(3)
      for (const q of misses)
        expect([q.detail.includes(dir), q.detail]).toEqual([false, expect.stringMatching(/^no reply recorded in the replay cache for this question \(key [0-9a-f]{64}\)$/)])
      expect(replayed.summary.cached).toBe(10)
      // A replay from a folder with nothing in it is the wrong folder, not thirteen failed questions.
      const empty = await mkdtemp(join(tmpdir(), 'rag-testset-empty-'))
      const error = await generateEvalSet({ ...everyChunk, judge: ollamaJudge({ model: 'llama3.1:8b', cache: judgeCache({ dir: empty, mode: 'replay' }) }) }).catch((e) => e)
      await rm(empty, { recursive: true, force: true })
      expect(error).toBeInstanceOf(JudgeError)
      expect((error as JudgeError).kind).toBe('cache-miss')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('stops on a fault that is not one question’s (an unknown model)', async () => {
    fake.on('/api/chat', () => true, { status: 404, body: { error: 'model "nope" not found, try pulling it first' } })
    const error = await generateEvalSet({ chunks, n: 2, judge: ollamaJudge({ model: 'nope', host: fake.host, retries: 0 }) }).catch((e) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect((error as JudgeError).kind).toBe('model-not-found')
  })
})

describe('generateEvalSet over a fake OpenAI-protocol server', () => {
  let fake: FakeOpenAI
  serverPerTest(startFakeOpenAI, (server) => {
    fake = server
  })

  it('lands each bad reply in its rejection count, never in the output (the refusal as OpenAI `refusal`)', async () => {
    fake.on('/v1/chat/completions', () => true, openaiWriter())
    const judge = openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: 'sk-test', timeoutMs: TIMEOUT_MS, retries: 1 })
    const set = await generateEvalSet({ ...everyChunk, judge })
    checkRejectionTable(set)
    checkGroundTruth(set)
    expect(set.rejected.find((r) => r.reason === 'refusal')?.detail).toContain('refused')
    // Structured output as the judge asks for it (it falls back to json_object after the malformed reply).
    expect(fake.requests[0]?.body.response_format?.type).toBe('json_schema')
    for (const req of fake.requests) expect([req.body.temperature, req.body.seed]).toEqual([0, 42])
  })
})

/** A function judge answering every passage with a good question about its last word. */
const wordJudge = (seen: string[] = []) =>
  functionJudge(
    ({ messages }) => {
      const passage = /<<<PASSAGE (#[0-9a-f]{8})>>>\n([\s\S]*?)\n<<<END PASSAGE \1>>>/.exec(messages[1]?.content ?? '')?.[2] ?? ''
      seen.push(passage)
      const word = (passage.match(/\w+/g) ?? []).at(-1) ?? ''
      return { question: `Which distinct term ends passage number ${seen.length}?`, answer: `It is ${word}.`, keyword: word }
    },
    { id: 'words', model: 'scripted' },
  )

const spreadCorpus = Array.from({ length: 24 }, (_, i) => ({ id: `p${i}`, text: `Paragraph ${i} ends with term${i}x` }))

describe('generateEvalSet sampling', () => {
  it('spreads the sample over the corpus, and another seed samples other chunks', async () => {
    const sources = async (seed: number) =>
      (await generateEvalSet({ chunks: spreadCorpus, judge: wordJudge(), n: 4, seed, kinds: ['factual'], maxQuestionOverlap: 1 })).items.map((i) => i.source[0])
    const one = await sources(1)
    const two = await sources(2)
    expect(await sources(1)).toEqual(one)
    expect(one).not.toEqual(two)
    // n = 4 strata of six chunks: one question from each.
    for (const picked of [one, two]) expect(picked.map((id) => Math.floor(Number(String(id).slice(1)) / 6))).toEqual([0, 1, 2, 3])
  })

  it('replaces a rejected chunk with the next of the spread order, and says when the corpus runs out', async () => {
    const corpus = [
      { id: 'a', text: 'alpha one' },
      { id: 'b', text: 'bravo two' },
      { id: 'c', text: 'charlie three' },
    ]
    // The keyword "one" is in no chunk but a, so only a's question passes; "two" and "three" are copied wrong.
    const judge = functionJudge(
      ({ messages }) => {
        const text = messages[1]?.content ?? ''
        const keyword = text.includes('alpha one') ? 'one' : 'missing'
        return { question: 'Which number is it?', answer: `It is ${keyword}.`, keyword }
      },
      { id: 'one-good', model: 'scripted' },
    )
    const set = await generateEvalSet({ chunks: corpus, judge, n: 2, kinds: ['factual'] })
    expect(set.items.map((i) => i.source)).toEqual([['a']])
    expect(set.summary).toMatchObject({ requested: 2, generated: 3, kept: 1, complete: false })
    expect(set.summary.rejected['keyword-not-in-chunk']).toBe(2)
  })

  it('writes multi-chunk questions from two related chunks, one keyword from each', async () => {
    const corpus = [
      { id: 'm1', text: 'The Lyra probe carries a spectrometer built by Vantor Labs.' },
      { id: 'm2', text: 'Bread rises overnight in the galley oven.' },
      { id: 'm3', text: 'Vantor Labs also built the probe antenna from woven copper.' },
    ]
    const judge = functionJudge(
      ({ messages, schema }) => {
        expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['answer', 'keyword1', 'keyword2', 'question'])
        const text = messages[1]?.content ?? ''
        expect(text).toContain('Lyra probe')
        expect(text).toContain('woven copper')
        return {
          question: 'Which lab made both instruments of the probe?',
          answer: 'A spectrometer and a woven copper antenna.',
          keyword1: 'spectrometer',
          keyword2: 'woven copper',
        }
      },
      { id: 'multi', model: 'scripted' },
    )
    const set = await generateEvalSet({ chunks: corpus, judge, n: 1, kinds: ['multi-chunk'] })
    expect(set.items).toEqual([
      {
        id: 'multi-chunk-m1+m3',
        question: 'Which lab made both instruments of the probe?',
        keyword: 'spectrometer',
        keywords: ['spectrometer', 'woven copper'],
        relevant: ['m1', 'm3'],
        reference: 'A spectrometer and a woven copper antenna.',
        kind: 'multi-chunk',
        source: ['m1', 'm3'],
      },
    ])
  })
})

describe('generateEvalSet input errors', () => {
  const judge = wordJudge()
  it.each([
    ['an empty corpus', { chunks: [], judge, n: 1 }, 'chunks'],
    ['a chunk without an id', { chunks: [{ id: 'a', text: 'x' }, { text: 'y' }], judge, n: 1 }, 'chunks[1].id'],
    [
      'duplicate ids',
      {
        chunks: [
          { id: 'a', text: 'x' },
          { id: 'a', text: 'y' },
        ],
        judge,
        n: 1,
      },
      'chunks[1].id',
    ],
    ['n larger than the corpus', { chunks: [{ id: 'a', text: 'x 1' }], judge, n: 2, kinds: ['factual'] }, 'n'],
    [
      'more numeric questions than chunks with numbers',
      {
        chunks: [
          { id: 'a', text: 'x 1' },
          { id: 'b', text: 'y' },
        ],
        judge,
        n: 2,
        kinds: ['numeric'],
      },
      'n',
    ],
    [
      'multi-chunk needing more chunks than there are',
      {
        chunks: [
          { id: 'a', text: 'x' },
          { id: 'b', text: 'y' },
          { id: 'c', text: 'z' },
        ],
        judge,
        n: 2,
        kinds: ['multi-chunk'],
      },
      'n',
    ],
    ['n not a positive integer', { chunks, judge, n: 0 }, 'n'],
    ['no judge', { chunks, judge: {}, n: 1 }, 'judge'],
    ['an unknown kind', { chunks, judge, n: 1, kinds: ['opinion'] }, 'kinds[0]'],
    ['a misspelt option', { chunks, judge, n: 1, sed: 2 }, 'sed'],
  ])('%s is a MetricInputError naming the argument', async (_name, options, argument) => {
    const error = await generateEvalSet(options as never).catch((e) => e)
    expect(error).toBeInstanceOf(MetricInputError)
    if ((error as MetricInputError).argument !== undefined && argument !== 'sed') expect((error as MetricInputError).argument).toBe(argument)
    expect((error as Error).message).toContain(argument)
  })
})
