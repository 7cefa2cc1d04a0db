// One valid call per form of every declared matcher (issue #27), from the registry: each declaration's own
// `failing` example where it has one, its eval-set form derived by family, and for the matchers without an
// example (the judges) a call here. `seedsFor` throws for a form no seed reaches, so a new matcher or form
// is covered, or the suite says what is missing, never skipped in silence. The property suites mutate
// these calls (user text made hostile, holes punched in arrays, options made non-plain).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { allMatchers, matcherDeclarations } from '../../matchers/all.js'
import type { MatcherContext } from '../../matchers/context.js'
import { formFor, type MatcherDeclaration } from '../../matchers/declare.js'
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { JudgeError } from '../../src/judge/errors.js'
import type { Judge } from '../../src/judge/types.js'
import { randomJudge, type MatcherName } from './harness.js'

/** The size of a registry-driven property suite. */
export interface SuiteOptions {
  readonly seed: number
  /** Runs per matcher (each run calls the matcher twice: with and without `.not`). */
  readonly runs: number
  /** Runs per async (judge, embedding) matcher. */
  readonly asyncRuns: number
}

/** A matcher call: received, arguments, and what must happen before it (a baseline stored). */
export interface Seed {
  readonly received: unknown
  readonly args: unknown[]
  /** Runs once before the call, on the (mutated) call itself. */
  readonly setup?: (received: unknown, args: readonly unknown[]) => void
}

/** Builds a fresh seed per run; `text` turns a string into the run's hostile text (a judge's replies, which are not in the call). */
export type SeedFactory = (text: (s: string) => string) => Seed

/** A deep copy of arrays and plain objects (anything else, such as a function, is shared). */
export function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => clone(v) as unknown) as T
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T
  }
  return value
}

const judge = (text: (s: string) => string) => randomJudge(7, [text('the claim is supported'), 'Paris', text('not found in the context')])

/** A judge that fails every call with an error quoting user text (a reply, a model name), as a real client's errors do. */
const failingJudge = (text: (s: string) => string): Judge => ({
  id: text('judge-id'),
  model: 'm',
  temperature: 0,
  seed: 1,
  ask: () => Promise.reject(new JudgeError('invalid-reply', `the reply was not valid JSON: ${text('{"verdict": ')}`)),
})

/** Letter counts: deterministic, and two different texts are rarely similar. */
const embedder = () =>
  functionEmbedder((t: string) => [...'aeiou'].map((v) => [...t].filter((c) => c === v).length + 0.5), {
    id: 'letter-counts',
  })

/** The single-answer calls of the matchers whose declaration gives no `failing` example, and the rubric's set form. */
const SINGLE: Readonly<Record<string, SeedFactory>> = {
  toBeGroundedIn: (t) => ({ received: 'Paris is the capital.', args: [['Paris is the capital of France.', { id: 'c2', text: 'Lyon is a city.' }], 0.9, { judge: judge(t) }] }),
  toBeCompleteGiven: (t) => ({
    received: 'Paris.',
    args: [{ reference: 'Paris is the capital and the largest city.' }, 0.9, { judge: judge(t), question: 'What is the capital?' }],
  }),
  toUtilizeContext: (t) => ({
    received: 'Paris.',
    args: [
      [
        { id: 'c1', text: 'Paris is the capital.' },
        { id: 'c2', text: 'Lyon is a city.' },
      ],
      0.9,
      { judge: judge(t), question: 'What is the capital?' },
    ],
  }),
  toHaveContextRecall: (t) => ({ received: [{ id: 'c1', text: 'Paris is the capital.' }], args: ['Paris is the capital of France.', 0.9, { judge: judge(t) }] }),
  toBeRelevantTo: (t) => ({ received: 'Paris.', args: ['What is the capital of France?', 0.9, { judge: judge(t) }] }),
  toSatisfyRubric: (t) => ({ received: 'Paris.', args: [{ id: 'r1', criteria: 'Names the capital' }, 0.9, { judge: judge(t), question: 'What is the capital?' }] }),
  toBePreferredOver: (t) => ({ received: 'Paris.', args: ['Lyon.', { judge: judge(t), question: 'What is the capital?', criteria: 'correctness' }] }),
  toRetainKnowledge: (t) => ({ received: conversation(t), args: [0.9, { judge: judge(t) }] }),
  toCompleteConversation: (t) => ({ received: conversation(t), args: [0.9, { judge: judge(t) }] }),
}

/** A two-turn conversation for the conversation judges (issue #31). */
function conversation(t: (s: string) => string): { id: string; turns: Array<{ user: string; assistant: string }> } {
  return {
    id: 'c1',
    turns: [
      { user: t('I live in Paris.'), assistant: 'Noted.' },
      { user: 'Where do I live?', assistant: t('In Paris.') },
    ],
  }
}

/** A failed case (its pipeline threw), which every set form names with its error. */
const failedCase = () => ({ id: 'q3', error: { name: 'Error', message: 'vector DB timeout' } })

/** The eval-set form of a matcher from its single call (or the other way round), by family. */
function setSeed(decl: MatcherDeclaration, single: SeedFactory): SeedFactory | undefined {
  switch (decl.family) {
    case 'retrieval':
      return (t) => {
        const s = single(t)
        // an example that is already a set gives the one-case form from its first case
        if (Array.isArray(s.received)) return { received: s.received[0], args: s.args }
        return { received: [{ id: 'q1', ...(s.received as object) }, { id: 'q2', retrieved: ['a', 'b'], relevant: ['b'] }, failedCase()], args: s.args }
      }
    case 'generation':
    case 'embeddings':
      return (t) => {
        const s = single(t)
        const [reference, ...rest] = s.args
        return {
          received: [{ id: 'q1', answer: s.received, reference }, { id: 'q2', answer: 'a dog ran', references: ['the cat sat on the mat'] }, failedCase()],
          args: rest,
        }
      }
    case 'judge':
      return (t) => {
        const s = single(t)
        // the conversation judges: a set of conversations, with a failed case
        if (decl.name === 'toRetainKnowledge' || decl.name === 'toCompleteConversation') {
          return { received: { name: 'chats', cases: [s.received, { id: 'c2', turns: [{ user: 'Hi.', assistant: t('Hello.') }] }, failedCase()] }, args: s.args }
        }
        const cases = [
          {
            id: 'q1',
            question: 'What is the capital?',
            answer: 'Paris.',
            reference: 'Paris is the capital.',
            contexts: [{ id: 'c1', text: 'Paris is the capital.' }, 'Lyon is a city.'],
          },
          { id: 'q2', question: 'Where is Lyon?', answer: 'In France.', reference: 'Lyon is in France.', contexts: ['Lyon is in France.'] },
          failedCase(),
        ]
        // the rubric set form keeps its rubric argument; the others take (min, options)
        return { received: { name: 'qa', cases }, args: decl.name === 'toSatisfyRubric' ? s.args : s.args.slice(-2) }
      }
    case 'agent':
      if (decl.name === 'toStayWithinBudget') return undefined
      return (t) => {
        const s = single(t)
        const first: unknown = Array.isArray(s.received) ? s.received[0] : undefined
        // a set example (tool-call F1) gives the one-case form from its first case's calls and expected calls
        if (first !== null && typeof first === 'object' && 'toolCalls' in first) {
          const c = first as { toolCalls: unknown; expectedToolCalls: unknown }
          return { received: c.toolCalls, args: [c.expectedToolCalls, ...s.args] }
        }
        return {
          received: [
            { id: 'q1', toolCalls: s.received, expectedToolCalls: ['search', { name: 'weather', args: { city: t('Paris') } }] },
            { id: 'q2', toolCalls: [{ name: t('search'), args: { query: t('heads') } }], expectedToolCalls: ['search'] },
            failedCase(),
          ],
          args: s.args,
        }
      }
    default:
      return undefined
  }
}

let baselineDir: string | undefined

/** Removes the baseline files the seeds wrote (call from afterAll). */
export function removeSeedFiles(): void {
  if (baselineDir !== undefined) rmSync(baselineDir, { recursive: true, force: true })
  baselineDir = undefined
}

/** A baseline stored from a better run (every case perfect, one more case), then compared with the call: regressions, removed and failed cases. */
const baseline: SeedFactory = () => {
  baselineDir ??= mkdtempSync(join(tmpdir(), 'rag-property-baseline-'))
  const dir = mkdtempSync(join(baselineDir, 'b-'))
  return {
    received: [
      { id: 'q1', retrieved: ['d7', 'd2'], relevant: ['d2', 'd4'], answer: 'the cat', reference: 'the cat sat on the mat' },
      { id: 'q2', retrieved: ['a'], relevant: ['b'], answer: 'a dog', reference: 'a dog ran home' },
      failedCase(),
    ],
    args: [
      'qa',
      {
        // a metric with options and a per-metric tolerance: nested option records the property suites reach too
        metrics: ['recall@3', { metric: 'sentenceBleu', tokenize: 'intl' }],
        tolerance: { 'recall@3': 0.05, sentenceBleu: 0.02 },
        dir,
        file: join(dir, 'qa.test.ts'),
        test: 'none',
        resamples: 50,
        onWrite: () => undefined,
      },
    ],
    setup: (received, args) => {
      if (!Array.isArray(received)) return
      const better = [
        ...received.map((c: unknown) => {
          if (c === null || typeof c !== 'object') return c
          const o = c as Record<string, unknown>
          return { ...o, retrieved: o.relevant, answer: o.reference }
        }),
        { id: 'gone', retrieved: ['x'], relevant: ['x'], answer: 'the same', reference: 'the same' },
      ]
      const saved = process.env.RAG_MATCHERS_UPDATE_BASELINES
      process.env.RAG_MATCHERS_UPDATE_BASELINES = 'force'
      try {
        allMatchers.toMatchMetricBaseline.call(setupContext, better, ...args)
      } catch {
        // a mutated call the matcher refuses: the compared call is refused the same way
      } finally {
        if (saved === undefined) delete process.env.RAG_MATCHERS_UPDATE_BASELINES
        else process.env.RAG_MATCHERS_UPDATE_BASELINES = saved
      }
    },
  }
}

const setupContext: MatcherContext = {
  isNot: false,
  promise: '',
  utils: { matcherHint: (n) => n, printReceived: (v) => String(v), printExpected: (v) => String(v) },
}

/** Extra calls that reach what the examples do not: ids as record keys and Map keys, rating records, pairwise records. */
const EXTRA: Readonly<Record<string, readonly SeedFactory[]>> = {
  toCorrelateWith: [() => ({ received: { i1: 0.9, i2: 0.2, i3: 0.6, i4: 0.4 }, args: [{ i1: 1, i2: 5, i3: 2, i4: 4 }, 0.5] })],
  toHaveAgreementAbove: [
    () => ({
      received: [
        { item: 'i1', rater: 'r1', score: 1 },
        { item: 'i1', rater: 'r2', score: 2 },
        { item: 'i2', rater: 'r1', score: 3 },
        { item: 'i2', rater: 'r2', score: 1 },
        { item: 'i3', rater: 'r1', score: 2 },
        { item: 'i3', rater: 'r2', score: 3 },
      ],
      args: [0.6, { statistic: 'cohen' }],
    }),
    // a named dimension and three raters (Fleiss), and one rater only (Cohen cannot be computed, naming it)
    () => ({
      received: ['r1', 'r2', 'r3'].flatMap((rater, r) => ['i1', 'i2', 'i3'].map((item, i) => ({ item, rater, dimension: 'fluency', score: (r + i) % 3 }))),
      args: [0.6, { statistic: 'fleiss', dimension: 'fluency' }],
    }),
    () => ({
      received: [
        { item: 'i1', rater: 'r1', score: 1 },
        { item: 'i2', rater: 'r1', score: 2 },
      ],
      args: [0.6, { statistic: 'cohen' }],
    }),
  ],
  toWinAgainst: [
    () => ({
      received: [
        { item: 'i1', a: 'new', b: 'old', winner: 'b' },
        { item: 'i2', a: 'new', b: 'old', winner: 'b' },
        { item: 'i3', a: 'old', b: 'new', winner: 'a' },
      ],
      args: ['old', { system: 'new' }],
    }),
  ],
  toBeSemanticallySimilarTo: [
    () => ({ received: 'the cat sat', args: ['a dog ran', 0.9, { embedder: embedder() }] }),
    // an embedder that fails with the input in its error
    (t) => ({
      received: 'the cat sat',
      args: [
        'a dog ran',
        0.9,
        {
          embedder: functionEmbedder(
            (x: string) => {
              throw new Error(t(`model down on ${x}`))
            },
            { id: 'failing' },
          ),
        },
      ],
    }),
  ],
  toMatchMetricBaseline: [baseline],
}

/** Every seed of one declared matcher; throws when a form of it has none. */
export function seedsFor(decl: MatcherDeclaration): SeedFactory[] {
  const seeds: SeedFactory[] = []
  const failing = decl.failing
  // toMatchMetricBaseline's example writes under the docs' /project path: its seed here uses a temporary folder
  const single: SeedFactory | undefined =
    decl.name === 'toBeSemanticallySimilarTo' || decl.name === 'toMatchMetricBaseline'
      ? EXTRA[decl.name]?.[0]
      : failing !== undefined
        ? () => ({ received: clone(failing.received), args: clone([...failing.args]) })
        : SINGLE[decl.name]
  if (single !== undefined) {
    seeds.push(single)
    const set = setSeed(decl, single)
    if (set !== undefined) seeds.push(set)
  }
  for (const extra of EXTRA[decl.name] ?? []) if (!seeds.includes(extra)) seeds.push(extra)
  // every judge matcher once more with a judge whose calls fail (the message quotes the error)
  if (decl.family === 'judge') {
    for (const seed of [...seeds]) {
      seeds.push((t) => {
        const s = seed(t)
        return { ...s, args: s.args.map((a) => (a !== null && typeof a === 'object' && 'judge' in a ? { ...a, judge: failingJudge(t) } : a)) }
      })
    }
  }
  const identity = (s: string) => s
  for (const form of decl.forms) {
    if (!seeds.some((seed) => formFor(decl, seed(identity).received) === form)) {
      throw new Error(`${decl.name}: no seed reaches its form for ${form.received}; add one to test/property/seeds.ts`)
    }
  }
  return seeds
}

/** Every declared matcher with its seeds: the list the registry-driven properties run over. */
export function registry(): Array<{ name: MatcherName; async: boolean; family: string; decl: MatcherDeclaration; seeds: SeedFactory[] }> {
  return matcherDeclarations.map((d) => ({ name: d.name, async: d.async, family: d.family, decl: d as MatcherDeclaration, seeds: seedsFor(d as MatcherDeclaration) }))
}
