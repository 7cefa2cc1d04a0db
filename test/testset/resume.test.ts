import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache } from '../../src/judge/cache.js'
import { JudgeError } from '../../src/judge/errors.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { evalSetToJsonl, generateEvalSet } from '../../src/testset/public.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { serverPerTest } from '../helpers/scripted-server.js'
import { passageOf } from './scripted-writer.js'

/** Twelve chunks, each with its own term; the writer asks about the chunk's number and answers with its term. */
const chunks = Array.from({ length: 12 }, (_, i) => ({ id: `k${i}`, text: `Section ${i} of the manual defines the term zeta${i}q.` }))
const questions = ['What is defined', 'Which word names', 'Name the notion', 'Tell me the label', 'Which expression marks', 'Give the coined word']

function goodReply(req: { body: any }) {
  const passage = passageOf(req.body)
  const i = Number(/Section (\d+)/.exec(passage)?.[1])
  const content = JSON.stringify({
    question: `${questions[i % questions.length]} in section ${['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'][i]}?`,
    answer: `It is zeta${i}q.`,
    keyword: `zeta${i}q`,
  })
  return { body: { model: 'llama3.1:8b', created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: true } }
}

describe('generateEvalSet resumes through its cache', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })
  let dirs: string[] = []
  afterEach(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
    dirs = []
  })
  const tempDir = async () => {
    const d = await mkdtemp(join(tmpdir(), 'rag-testset-resume-'))
    dirs.push(d)
    return d
  }

  it('a run stopped by a failing model asks, when run again, only the questions it had not recorded, and writes the same set', async () => {
    const options = { chunks, n: 6, seed: 3, kinds: ['factual' as const], maxQuestionOverlap: 1 }
    const judge = (dir: string, host = fake.host) => ollamaJudge({ model: 'llama3.1:8b', host, retries: 0, concurrency: 1, cache: judgeCache({ dir, mode: 'readwrite' }) })

    const whole = await tempDir()
    fake.on('/api/chat', () => true, goodReply, { times: 6 })
    const reference = await generateEvalSet({ ...options, judge: judge(whole) })
    expect(reference.items).toHaveLength(6)
    expect(fake.requests).toHaveLength(6)

    // Interrupted: three questions answered, then the server loses the model (the round's other requests see it too).
    const resumed = await tempDir()
    fake.on('/api/chat', () => true, goodReply, { times: 3 })
    fake.on('/api/chat', () => true, { status: 404, body: { error: 'model "llama3.1:8b" not found, try pulling it first' } }, { times: 3 })
    const error = await generateEvalSet({ ...options, judge: judge(resumed) }).catch((e) => e)
    expect(error).toBeInstanceOf(JudgeError)
    const recorded = (await readdir(resumed)).filter((f) => f.endsWith('.json')).length
    expect(recorded).toBe(3)

    // Run again: only the three unrecorded questions reach the model, and the set is the uninterrupted one.
    const before = fake.requests.length
    fake.on('/api/chat', () => true, goodReply, { times: 3 })
    const again = await generateEvalSet({ ...options, judge: judge(resumed) })
    expect(fake.requests.length - before).toBe(3)
    expect(evalSetToJsonl(again.items)).toBe(evalSetToJsonl(reference.items))
    expect(again.summary.cached).toBe(3)
  })
})
