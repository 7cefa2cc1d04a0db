import { parseDataset } from '../../src/eval-set/load-dataset.js'
import { functionJudge } from '../../src/judge/function-judge.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../src/judge/openai-judge.js'
import { evalSetToJsonl, generateEvalSet, REJECTION_REASONS, UNANSWERABLE_REFERENCE, type GeneratedEvalSet } from '../../src/testset/public.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js'
import { serverPerTest } from '../helpers/scripted-server.js'
import { CORPUS, ollamaWriter, openaiWriter, TIMEOUT_MS, type ScriptedChunk, type WriterReply } from './scripted-writer.js'

/** The scripted corpus's texts, each with what the model replies when asked for an unanswerable question about it. */
const UNANSWERABLE: ReadonlyArray<readonly [id: string, reply: WriterReply, expect: string]> = [
  ['c01', { json: { question: 'Who designed the cooling loop of the Helios Core reactor?', keyword: 'cooling loop' } }, 'kept or near-duplicate'],
  // "hydroponic towers" is in c04: the corpus mentions the detail.
  ['c04', { json: { question: 'Which vegetables besides lettuce grow in the hydroponic towers?', keyword: 'hydroponic towers' } }, 'keyword-in-corpus'],
  // "Orion station" is in every chunk.
  ['c05', { json: { question: 'When was Orion station first crewed?', keyword: 'Orion station' } }, 'keyword-in-corpus'],
  // The keyword is not a span of the question: its absence from the corpus says nothing about the question.
  ['c06', { json: { question: 'When did the chief engineer join the crew?', keyword: 'hiring date' } }, 'keyword-not-in-question'],
  ['c09', { raw: '{"question": "How large is the vault?", "keyword": ' }, 'malformed'],
  ['c10', { refuse: "I'm sorry, but I can't help with that request." }, 'refusal'],
  ['c11', { hangMs: 8_000 }, 'timeout'],
  ['c12', { json: { question: 'Who designed the cooling loop of the Helios Core reactor first?', keyword: 'designed the cooling loop' } }, 'kept or near-duplicate'],
  ['c13', { json: { question: 'How many visitors pass through the decontamination gate each year?', keyword: 'each year' } }, 'kept'],
]
const script: ScriptedChunk[] = UNANSWERABLE.map(([id, reply, expect]) => ({ ...(CORPUS.find((c) => c.id === id) as ScriptedChunk), reply, expect }))
const chunks = CORPUS.map(({ id, text }) => ({ id, text }))
/** Only the scripted chunks, each asked once (n = their number). */
const options = { chunks: chunks.filter((c) => script.some((s) => s.id === c.id)), n: script.length, seed: 1, kinds: ['unanswerable' as const] }

function checkUnanswerableTable(set: GeneratedEvalSet): void {
  const expected: Record<string, number> = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0]))
  for (const s of script) if (!s.expect.startsWith('kept')) expected[s.expect] = (expected[s.expect] as number) + 1
  // c01 and c12 ask nearly the same question: whichever is checked second is the near-duplicate.
  expected['near-duplicate'] = 1
  expect(set.summary.rejected).toEqual(expected)
  expect(set.summary.kinds.unanswerable).toEqual({ requested: 9, kept: 2 })
  const kept = set.items.map((i) => i.source[0])
  expect(kept).toContain('c13')
  expect(kept.filter((id) => id === 'c01' || id === 'c12')).toHaveLength(1)
  for (const r of set.rejected) expect(kept).not.toContain(r.source[0])
  for (const r of set.rejected) expect(script.find((s) => s.id === r.source[0])?.expect).toContain(r.reason)
  const gate = set.items.find((i) => i.source[0] === 'c13')
  expect(gate).toEqual({
    id: 'unanswerable-c13',
    question: 'How many visitors pass through the decontamination gate each year?',
    keyword: 'each year',
    relevant: [],
    reference: UNANSWERABLE_REFERENCE,
    kind: 'unanswerable',
    source: ['c13'],
  })
  // loadDataset reads the items as they are, relevant [] included.
  expect(parseDataset(evalSetToJsonl(set.items), { format: 'jsonl' })).toEqual(set.items.map((i) => ({ ...i })))
  // An unanswerable question covers no chunk.
  expect(set.summary.chunksCovered).toBe(0)
}

describe('unanswerable questions over a fake Ollama server', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })
  it('keeps a question whose keyword is in the question and in no chunk; every bad reply lands in its count', async () => {
    fake.on('/api/chat', () => true, ollamaWriter(script))
    const set = await generateEvalSet({ ...options, judge: ollamaJudge({ model: 'llama3.1:8b', host: fake.host, timeoutMs: TIMEOUT_MS, retries: 0 }) })
    checkUnanswerableTable(set)
    // The schema asks for a question and the missing detail only.
    expect(Object.keys(fake.requests[0]?.body.format.properties).sort()).toEqual(['keyword', 'question'])
  })
})

describe('unanswerable questions over a fake OpenAI-protocol server', () => {
  let fake: FakeOpenAI
  serverPerTest(startFakeOpenAI, (server) => {
    fake = server
  })
  it('the same table, the refusal as OpenAI `refusal`', async () => {
    fake.on('/v1/chat/completions', () => true, openaiWriter(script))
    const set = await generateEvalSet({
      ...options,
      judge: openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: 'sk-test', timeoutMs: TIMEOUT_MS, retries: 0 }),
    })
    checkUnanswerableTable(set)
  })
})

describe('the unanswerable kind in a mix', () => {
  it('takes its share of n from the chunks the other kinds left, one question per chunk', async () => {
    const corpus = Array.from({ length: 8 }, (_, i) => ({ id: `d${i}`, text: `Deck ${i} stores crate number ${i}${i} and term${i}x.` }))
    const judge = functionJudge(
      ({ messages, schema }) => {
        const passage = /<<<PASSAGE (#[0-9a-f]{8})>>>\n([\s\S]*?)\n<<<END PASSAGE \1>>>/.exec(messages[1]?.content ?? '')?.[2] ?? ''
        const i = Number(/Deck (\d+)/.exec(passage)?.[1])
        const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'][i]
        if (!('answer' in (schema.properties ?? {}))) return { question: `Who painted the ${words} mural on the deck?`, keyword: `${words} mural` }
        return { question: `What does the ${words} deck keep?`, answer: `It keeps term${i}x.`, keyword: `term${i}x` }
      },
      { id: 'mix', model: 'scripted' },
    )
    const set = await generateEvalSet({ chunks: corpus, judge, n: 8, kinds: { factual: 3, unanswerable: 1 }, maxQuestionOverlap: 1 })
    expect(set.summary.kinds).toMatchObject({ factual: { requested: 6, kept: 6 }, unanswerable: { requested: 2, kept: 2 } })
    const unanswerable = set.items.filter((i) => i.kind === 'unanswerable')
    expect(unanswerable.map((i) => i.relevant)).toEqual([[], []])
    // No chunk is used twice.
    expect(new Set(set.items.map((i) => i.source[0])).size).toBe(8)
  })

  it('refuses an n the corpus cannot supply, counting the unanswerable questions', async () => {
    const judge = functionJudge(() => ({}), { id: 'none', model: 'scripted' })
    const error = await generateEvalSet({ chunks: [{ id: 'a', text: 'x' }], judge, n: 2, kinds: ['factual', 'unanswerable'] }).catch((e) => e)
    expect(error.name).toBe('MetricInputError')
    expect(error.message).toContain('1 factual + 1 unanswerable need 2 chunks, the corpus has 1 non-blank')
  })
})
