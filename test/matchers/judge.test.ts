// Runs under Vitest AND Jest (globals only). The judge is a real ollamaJudge talking to the scripted
// fake Ollama server; caches are explicit (mode off, or a temp folder) so no test writes into the repo.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache } from '../../src/judge/cache.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import type { Judge } from '../../src/judge/types.js'
import { configure, resetConfig } from '../../matchers/config.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { asyncFailureOf } from '../helpers/failure.js'
import { chatReply, dataOf, step } from '../src/judge/helpers.js'

const CONTEXTS = [
  { id: 'doc-a', text: 'Paris is the capital and largest city of France.' },
  { id: 'doc-b', text: 'France uses the euro.' },
]
const GOOD = 'Paris is the capital of France.'
const BAD = 'Paris is the capital of France. France uses the franc. Paris has 80 million people.'

let fake: FakeOllama
const root = mkdtempSync(join(tmpdir(), 'rag-matchers-judge-matchers-'))

/** A judge on the fake server; `cache: off` so nothing is written (a fixed name keeps messages stable). */
function makeJudge(options: { seed?: number; temperature?: number } = {}): Judge {
  return ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir: 'judge-cache', mode: 'off' }), ...options })
}

function scriptGroundedness(): void {
  fake.on('/api/chat', step('claims'), (req) => {
    const answer = dataOf(req.body, 'ANSWER')
    if (answer === GOOD) return chatReply({ claims: [GOOD] })
    if (answer === BAD) return chatReply({ claims: ['Paris is the capital of France.', 'France uses the franc.', 'Paris has 80 million people.'] })
    return chatReply({ claims: [] })
  })
  fake.on('/api/chat', step('verdicts'), (req) => {
    if (dataOf(req.body, 'CLAIM 2') === undefined) return chatReply({ verdicts: [{ claim: 1, reason: 'Passage 1 says so.', verdict: 'supported', context: 1 }] })
    return chatReply({
      verdicts: [
        { claim: 1, reason: 'Passage 1 says so.', verdict: 'supported', context: 1 },
        { claim: 3, reason: 'No passage gives the population.', verdict: 'not_found', context: 0 },
        { claim: 2, reason: 'Passage 2 says the euro.', verdict: 'contradicted', context: 2 },
      ],
    })
  })
}

beforeEach(async () => {
  fake = await startFakeOllama()
})
afterEach(async () => {
  resetConfig()
  const unhandled = fake.unhandled.length
  await fake.close()
  expect(unhandled).toBe(0)
})
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('.toBeGroundedIn', () => {
  it('passes when every claim is supported (default min 1)', async () => {
    scriptGroundedness()
    await expect(GOOD).toBeGroundedIn(CONTEXTS, undefined, { judge: makeJudge() })
    await expect(GOOD).toBeGroundedIn(CONTEXTS, { judge: makeJudge() })
    await expect(BAD).toBeGroundedIn(CONTEXTS, 0.3, { judge: makeJudge() })
  })

  it('fails listing the unsupported claims, contradicted first, with reasons and the signature', async () => {
    scriptGroundedness()
    const message = await asyncFailureOf(() => expect(BAD).toBeGroundedIn(CONTEXTS, 0.9, { judge: makeJudge() }))
    expect(message).toContain('expect(received).toBeGroundedIn(contexts, min)')
    expect(message).toContain('groundedness = 0.3333   required ≥ 0.9000   (short by 0.5667)')
    expect(message).toMatch(/signature: Judge\|metric:groundedness@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|empty:vacuous\|version:/)
    expect(message).toContain('unsupported claims (2 of 3, contradicted first):')
    expect(message).toMatch(/contradicted\s+"France uses the franc\."\s+\(context doc-b\)\s+— "Passage 2 says the euro\."\n\s+not found\s+"Paris has 80 million people\."/)
    expect(message).toContain('supported: 1 of 3')
    expect(message).toContain('judge: ollama:llama3.1:8b, temperature 0, seed 42; 2 calls, 0 from cache; cache off judge-cache')
    expect(message.replace(/groundedness@[0-9a-f]{8}/, 'groundedness@HASH').replace(/version:[\d.]+/, 'version:X')).toMatchSnapshot()
  })

  it('.not passes below min and fails at or above it', async () => {
    scriptGroundedness()
    await expect(BAD).not.toBeGroundedIn(CONTEXTS, 0.5, { judge: makeJudge() })
    const message = await asyncFailureOf(() => expect(GOOD).not.toBeGroundedIn(CONTEXTS, 1, { judge: makeJudge() }))
    expect(message).toContain('expect(received).not.toBeGroundedIn(contexts, min)')
    expect(message).toContain('groundedness = 1.0000   required < 1.0000   (at or above by 0.0000)')
    expect(message).toContain('all 1 claims supported')
  })

  it('uses the judge set with configure({ judge })', async () => {
    scriptGroundedness()
    configure({ judge: makeJudge() })
    await expect(GOOD).toBeGroundedIn(CONTEXTS)
    expect(fake.requests).toHaveLength(2)
  })

  it('fails — with or without .not — when no judge is configured, saying how to configure one', async () => {
    const message = await asyncFailureOf(() => expect(GOOD).toBeGroundedIn(CONTEXTS))
    expect(message).toContain('groundedness could not be computed, so the assertion fails.')
    expect(message).toContain('No judge is configured.')
    expect(message).toContain("configure({ judge: ollamaJudge({ model: 'llama3.1:8b', host: process.env.OLLAMA_HOST }) })")
    const notMessage = await asyncFailureOf(() => expect(GOOD).not.toBeGroundedIn(CONTEXTS))
    expect(notMessage).toContain('No judge is configured.')
  })

  it('fails — with or without .not — when Ollama is unreachable, naming the host and `ollama serve`, without a stack', async () => {
    const down = await startFakeOllama()
    const host = down.host
    await down.close()
    const judge = ollamaJudge({ model: 'llama3.1:8b', host, cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) })
    for (const run of [() => expect(GOOD).toBeGroundedIn(CONTEXTS, 1, { judge }), () => expect(GOOD).not.toBeGroundedIn(CONTEXTS, 1, { judge })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('groundedness could not be computed, so the assertion fails.')
      expect(message).toContain(`Cannot reach Ollama at ${host} (ECONNREFUSED)`)
      expect(message).toContain('`ollama serve`')
      expect(message).not.toMatch(/\n\s+at /)
    }
  })

  it('fails on a missing model with `ollama pull`, and on a replay miss with the entry to record', async () => {
    fake.on('/api/chat', () => true, { status: 404, body: { error: 'model "llama3.1:8b" not found, try pulling it first' } })
    const missing = await asyncFailureOf(() => expect(GOOD).toBeGroundedIn(CONTEXTS, 1, { judge: makeJudge() }))
    expect(missing).toContain('Run `ollama pull llama3.1:8b`')
    const replay = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir: join(root, 'empty'), mode: 'replay' }) })
    const message = await asyncFailureOf(() => expect(GOOD).not.toBeGroundedIn(CONTEXTS, 1, { judge: replay }))
    expect(message).toContain('Judge cache (mode replay) has no entry for this request')
    expect(message).toContain(join(root, 'empty'))
    expect(message).toContain('commit the cache folder')
  })

  it('fails as not computable when the answer has no claims and onEmpty is nan', async () => {
    scriptGroundedness()
    // Issue #13: a claimless answer fails by default; `empty: 'pass'` accepts it (score 1 under onEmpty 'vacuous').
    await expect('I do not know.').toBeGroundedIn(CONTEXTS, 1, { judge: makeJudge(), empty: 'pass' })
    const message = await asyncFailureOf(() => expect('I do not know.').not.toBeGroundedIn(CONTEXTS, 1, { judge: makeJudge(), empty: 'pass', onEmpty: 'nan' }))
    expect(message).toContain('groundedness could not be computed')
    expect(message).toContain('groundedness is undefined (empty:nan)')
  })

  it('with repeat and passRate, passes on the share of runs ≥ min and prints the runs', async () => {
    fake.on('/api/chat', step('claims'), chatReply({ claims: ['A.', 'B.'] }))
    // seed 42: 2/2 supported, 43: 1/2, 44: 0/2
    fake.on('/api/chat', step('verdicts'), (req) => {
      const supported = 44 - req.body.options.seed
      return chatReply({
        verdicts: [1, 2].map((claim) => ({ claim, reason: 'r', verdict: claim <= supported ? 'supported' : 'not_found', context: claim <= supported ? 1 : 0 })),
      })
    })
    const judge = makeJudge({ temperature: 0.8 })
    await expect(BAD).toBeGroundedIn(CONTEXTS, 0.5, { judge, repeat: 3, passRate: 0.6 })
    const message = await asyncFailureOf(() => expect(BAD).toBeGroundedIn(CONTEXTS, 0.5, { judge, repeat: 3, passRate: 0.9 }))
    expect(message).toContain('share of 3 runs with groundedness ≥ 0.5000 = 0.6667   required ≥ 0.9000   (short by 0.2333)')
    expect(message).toContain('runs (seeds 42…44): 1.0000, 0.5000, 0.0000')
    expect(message).toContain('mean 0.5000, min 0.0000, max 1.0000, sd 0.4082; 2 of 3 runs ≥ 0.5000 (0.6667)')
    expect(message).toContain('|repeat:3|')
    // Without passRate the mean is compared.
    await expect(BAD).toBeGroundedIn(CONTEXTS, 0.5, { judge, repeat: 3 })
    await expect(BAD).not.toBeGroundedIn(CONTEXTS, 0.51, { judge, repeat: 3 })
  })

  it('records a cache-less judge to configure({ judgeCacheDir }) and replays from it', async () => {
    scriptGroundedness()
    const dir = join(root, 'recorded')
    configure({ judge: ollamaJudge({ model: 'llama3.1:8b', host: fake.host }), judgeCacheDir: dir })
    await expect(GOOD).toBeGroundedIn(CONTEXTS)
    expect(readdirSync(dir)).toHaveLength(2)
    await expect(GOOD).toBeGroundedIn(CONTEXTS)
    expect(fake.requests).toHaveLength(2)
    const message = await asyncFailureOf(() => expect(GOOD).not.toBeGroundedIn(CONTEXTS))
    expect(message).toContain('2 calls, 2 from cache; cache readwrite')
  })

  it('throws a Matcher error on misuse, even with .not', async () => {
    const judge = makeJudge()
    await expect(expect(42).toBeGroundedIn(CONTEXTS, 1, { judge })).rejects.toThrow(/Matcher error: received value must be an answer string/)
    await expect(expect(GOOD).not.toBeGroundedIn('doc' as never, 1, { judge })).rejects.toThrow(
      /Matcher error: contexts must be an array of strings or \{ id\?, text \} chunks/,
    )
    await expect(expect(GOOD).toBeGroundedIn(CONTEXTS, 2, { judge })).rejects.toThrow(/Matcher error: min must be a number from 0 to 1/)
    await expect(expect(GOOD).toBeGroundedIn(CONTEXTS, 1, { judge: {} as never })).rejects.toThrow(/Matcher error: options.judge must be a judge/)
    await expect(expect(GOOD).toBeGroundedIn(CONTEXTS, 1, { judge, repeat: 0 })).rejects.toThrow(/Matcher error: options.repeat must be a positive integer/)
    await expect(expect(GOOD).toBeGroundedIn(CONTEXTS, 1, { judge, passRate: 1.5 })).rejects.toThrow(/Matcher error: options.passRate must be a number from 0 to 1/)
    await expect(
      expect(GOOD).toBeGroundedIn(
        [
          { id: 'x', text: 'a' },
          { id: 'x', text: 'b' },
        ],
        1,
        { judge },
      ),
    ).rejects.toThrow(/Matcher error: groundedness: Expected `contexts\[1\]\.id` to be unique/)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('.toBeCompleteGiven', () => {
  beforeEach(() => {
    fake.on('/api/chat', step('points'), chatReply({ points: ['Paris is the capital of France', 'Paris lies on the Seine'] }))
    fake.on('/api/chat', step('verdicts'), (req) =>
      chatReply({
        verdicts: [
          { point: 1, reason: 'Stated.', verdict: 'covered' },
          { point: 2, reason: 'The Seine is not mentioned.', verdict: dataOf(req.body, 'ANSWER')?.includes('Seine') ? 'covered' : 'missing' },
        ],
      }),
    )
  })

  it('passes when enough key points are covered and lists the missing ones on failure', async () => {
    const judge = makeJudge()
    await expect('Paris, on the Seine, is the capital.').toBeCompleteGiven({ reference: 'Paris, on the Seine, is the capital of France.' }, 1, { judge })
    await expect('Paris is the capital.').not.toBeCompleteGiven({ contexts: CONTEXTS }, 0.6, { judge, question: 'Tell me about Paris.' })
    const message = await asyncFailureOf(() => expect('Paris is the capital.').toBeCompleteGiven({ reference: 'Paris, on the Seine.' }, 1, { judge }))
    expect(message).toContain('expect(received).toBeCompleteGiven(source, min)')
    expect(message).toContain('completeness = 0.5000   required ≥ 1.0000   (short by 0.5000)')
    expect(message).toMatch(/missing key points of the reference \(1 of 2\):\n\s+"Paris lies on the Seine"\s+— "The Seine is not mentioned\."/)
    expect(message).toContain('covered: 1 of 2')
  })

  it('throws a Matcher error for a bad source', async () => {
    await expect(expect('a').toBeCompleteGiven({ reference: 'r', contexts: [] } as never, 1, { judge: makeJudge() })).rejects.toThrow(
      /Matcher error: source must be \{ reference: string \} or \{ contexts: \[\.\.\.\] \}/,
    )
    await expect(expect('a').toBeCompleteGiven({ contexts: [] }, 1, { judge: makeJudge() })).rejects.toThrow(
      /Matcher error: completeness: Expected `source.contexts` to be a non-empty array/,
    )
  })
})

describe('.toUtilizeContext', () => {
  it('lists unused chunks, relevant ones (ignored-good) first', async () => {
    const verdicts: Record<string, { used: boolean; relevant: boolean }> = {
      'Bananas are yellow.': { used: false, relevant: false },
      'Paris is the capital and largest city of France.': { used: true, relevant: true },
      'France uses the euro.': { used: false, relevant: true },
    }
    fake.on('/api/chat', step('reason', 'relevant', 'used'), (req) => {
      const text = dataOf(req.body, 'CONTEXT') as string
      return chatReply({ reason: `about ${text.split(' ')[0]}`, ...verdicts[text] })
    })
    const chunks = [{ id: 'noise', text: 'Bananas are yellow.' }, ...CONTEXTS]
    const judge = makeJudge()
    await expect(GOOD).toUtilizeContext(chunks, 0.3, { judge, question: 'Tell me about France.' })
    const message = await asyncFailureOf(() => expect(GOOD).toUtilizeContext(chunks, 0.5, { judge, question: 'Tell me about France.' }))
    expect(message).toContain('context utilization = 0.3333   required ≥ 0.5000   (short by 0.1667)')
    expect(message).toMatch(/unused chunks \(2 of 3, relevant first\):\n\s+doc-b\s+relevant, ignored\s+— "about France"\n\s+noise\s+irrelevant, ignored\s+— "about Bananas"/)
    expect(message).toContain('used: doc-a')
  })
})

describe('.toHaveContextRecall', () => {
  it('takes the retrieved contexts as the received value and lists the statements retrieval missed', async () => {
    fake.on('/api/chat', step('statements'), chatReply({ statements: ['Paris is the capital of France.', 'Paris lies on the Seine.'] }))
    fake.on(
      '/api/chat',
      step('verdicts'),
      chatReply({
        verdicts: [
          { statement: 1, reason: 'Passage 1.', verdict: 'attributed', context: 1 },
          { statement: 2, reason: 'No passage mentions the Seine.', verdict: 'not_attributed', context: 0 },
        ],
      }),
    )
    const judge = makeJudge()
    await expect(CONTEXTS).toHaveContextRecall('Paris, on the Seine, is the capital of France.', 0.5, { judge })
    const message = await asyncFailureOf(() => expect(CONTEXTS).toHaveContextRecall('Paris, on the Seine, is the capital of France.', 0.9, { judge }))
    expect(message).toContain('expect(received).toHaveContextRecall(reference, min)')
    expect(message).toContain('context recall = 0.5000   required ≥ 0.9000')
    expect(message).toMatch(/reference statements not found in the contexts \(1 of 2\):\n\s+"Paris lies on the Seine\."\s+— "No passage mentions the Seine\."/)
    await expect(expect('not a list').toHaveContextRecall('r', 0.5, { judge })).rejects.toThrow(/Matcher error: received value \(the retrieved contexts\) must be an array/)
  })
})

describe('.toBeRelevantTo', () => {
  it('compares the share of relevant statements with min and lists the off-topic ones', async () => {
    fake.on(
      '/api/chat',
      step('statements'),
      chatReply({
        statements: [
          { statement: 'Paris is the capital.', reason: 'Answers it.', relevant: true },
          { statement: 'I like trains.', reason: 'Off topic.', relevant: false },
        ],
      }),
    )
    const judge = makeJudge()
    await expect('Paris is the capital. I like trains.').toBeRelevantTo('What is the capital of France?', 0.5, { judge })
    const message = await asyncFailureOf(() => expect('Paris is the capital. I like trains.').toBeRelevantTo('What is the capital of France?', 0.8, { judge }))
    expect(message).toContain('answer relevance = 0.5000   required ≥ 0.8000')
    expect(message).toMatch(/statements that do not address the question \(1 of 2\):\n\s+"I like trains\."\s+— "Off topic\."/)
  })
})

describe('.toSatisfyRubric', () => {
  it('compares the normalised rubric score and shows the raw score and reason', async () => {
    fake.on('/api/chat', step('reason', 'score'), chatReply({ reason: 'Cites one source of two.', score: 4 }))
    const judge = makeJudge()
    await expect('Paris [1].').toSatisfyRubric({ id: 'cites', criteria: 'Cites its sources.' }, 0.75, { judge })
    const message = await asyncFailureOf(() => expect('Paris [1].').toSatisfyRubric({ id: 'cites', criteria: 'Cites its sources.' }, 0.8, { judge }))
    expect(message).toContain('rubric score = 0.7500   required ≥ 0.8000   (short by 0.0500)')
    expect(message).toContain('rubric cites: raw score 4 on 1…5\nreason: "Cites one source of two."')
    expect(message).toMatch(/\|rubric:cites@[0-9a-f]{8}\|scale:1-5\|/)
    await expect(expect('a').toSatisfyRubric({ criteria: 'x', scale: [3, 1] } as never, 0.5, { judge })).rejects.toThrow(/Matcher error: rubricScore: Expected `rubric.scale`/)
  })
})

describe('.toBePreferredOver', () => {
  const question = 'What is the capital of France?'

  it('passes when both orders prefer the received answer', async () => {
    fake.on('/api/chat', step('reason', 'winner'), (req) =>
      chatReply({ reason: 'Paris is right.', winner: dataOf(req.body, 'FIRST ANSWER') === 'Paris.' ? 'first' : 'second' }),
    )
    await expect('Paris.').toBePreferredOver('Lyon.', { question, judge: makeJudge() })
    await expect('Lyon.').not.toBePreferredOver('Paris.', { question, judge: makeJudge() })
  })

  it('fails on a tie from a position-biased judge, showing both orders', async () => {
    fake.on('/api/chat', step('reason', 'winner'), chatReply({ reason: 'The first one is better.', winner: 'first' }))
    const message = await asyncFailureOf(() => expect('Paris.').toBePreferredOver('Lyon.', { question, judge: makeJudge() }))
    expect(message).toContain('expect(received).toBePreferredOver(otherAnswer, { question })')
    expect(message).toContain('pairwise preference (1 received preferred, 0.5 tie, 0 other preferred) = 0.5000   required ≥ 1.0000')
    expect(message).toContain('winner: tie (the two orders disagreed, so it counts as a tie; position bias?)')
    expect(message).toMatch(/received shown first:\s+received\s+— "The first one is better\."\n\s+other shown first:\s+other answer/)
  })

  it('needs the question', async () => {
    await expect(expect('a').toBePreferredOver('b', {} as never)).rejects.toThrow(/Matcher error: options must include the question/)
    await expect(expect('a').not.toBePreferredOver('b', undefined as never)).rejects.toThrow(/Matcher error: options must include the question/)
  })
})
