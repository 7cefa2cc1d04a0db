// Hand-edited files the library reads back (issue #27), generated: a baseline written by toMatchMetricBaseline
// and a judge cache entry written by the cache, then edited the way a person (or a merge) edits them.
// - baseline: a value out of its metric's range, a value, signature, measure or record of the wrong type,
//   two metrics' values swapped, a metric key the registry does not know, an unknown key at any level, a key
//   repeated in one object: refused with a Matcher error naming the file, never a pass; a byte order mark
//   changes nothing.
// - judge cache (replay mode): the reply's content or value edited, a value of the wrong type or out of the
//   schema's range, a digest removed, the request edited, an unknown or repeated key: never replayed as the
//   judge's answer; the assertion fails in both directions (could not be computed) naming the cause.
// Run by test/property/files.property.test.ts (Vitest) and test/jest/property-registry.test.ts (Jest).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherContext } from '../../matchers/context.js'
import { metricRange } from '../../src/eval-set/metrics.js'
import { judgeCache } from '../../src/judge/cache.js'
import { functionJudge } from '../../src/judge/function-judge.js'
import { checkPair, runAsync, runSync } from './harness.js'
import type { SuiteOptions } from './seeds.js'

const quiet: MatcherContext = { isNot: false, promise: '', utils: { matcherHint: (n) => n, printReceived: String, printExpected: String } }

/** Runs `fn` with the baseline switch and CI as given, restoring both. */
function withEnv<T>(env: { update?: string; ci?: string }, fn: () => T): T {
  const saved = { u: process.env.RAG_MATCHERS_UPDATE_BASELINES, c: process.env.CI }
  const set = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v))
  set('RAG_MATCHERS_UPDATE_BASELINES', env.update)
  set('CI', env.ci)
  try {
    return fn()
  } finally {
    set('RAG_MATCHERS_UPDATE_BASELINES', saved.u)
    set('CI', saved.c)
  }
}

// ---------------------------------------------------------------- baseline files

const METRICS = ['recall@3', 'mrr', 'sentenceBleu', 'ter'] as const
const CASES = ['q1', 'q2', 'q3'].map((id, i) => ({
  id,
  retrieved: [`d${i}`, 'x', `e${i}`],
  relevant: [`d${i}`, `e${i}`],
  answer: `the cat sat on mat number ${i}`,
  reference: `the cat sat on the mat number ${i}`,
}))

type Json = Record<string, unknown>
/**
 * One hand edit of a baseline document: on the parsed object, or on the text. `refuse`: a Matcher error naming
 * the file; `fail`: never a pass (an emptied record is a baseline without those values: CI fails on it);
 * `same`: the outcome of the unedited file.
 */
type BaselineEdit = { kind: 'refuse' | 'fail' | 'same'; what: string; object?: (doc: Json) => void; text?: (text: string) => string }

const metricsOf = (doc: Json) => ((doc.entries as Json).qa as Json).metrics as Record<string, Json>

const isEmptyRecord = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0

const junkValue = fc.constantFrom<unknown>('0.5', null, true, [], {}, [0.5], { value: 0.5 })

const baselineEdit: fc.Arbitrary<BaselineEdit> = fc.oneof(
  // out of range: below 0, or above the scale (TER has none above)
  fc
    .tuple(fc.constantFrom(...METRICS), fc.constantFrom('q1', 'q2', 'q3'), fc.boolean(), fc.double({ min: 1e-9, max: 1e6, noNaN: true }))
    .filter(([metric, , above]) => !above || Number.isFinite(metricRange(metric)[1]))
    .map(([metric, id, above, by]) => {
      const [low, high] = metricRange(metric)
      const value = above ? high + Math.max(by, high * 1e-9) : low - by
      return {
        kind: 'refuse',
        what: `${metric}.${id} = ${value}`,
        object: (doc: Json) => (((metricsOf(doc)[metric] as Json).values as Json)[id] = value),
      } satisfies BaselineEdit
    }),
  // the wrong type at each level
  fc
    .tuple(fc.constantFrom(...METRICS), fc.constantFrom('value', 'signature', 'measure', 'values', 'metric', 'metrics', 'entry', 'entries', 'version'), junkValue)
    // a measure is a display name: any string is of the right type (the signature, not the measure, is the identity)
    .filter(([, where, v]) => !(where === 'measure' && typeof v === 'string'))
    .map(
      ([metric, where, v]) =>
        ({
          // an emptied record of cases, metrics or entries has the right type: the values are missing, not wrong
          kind: ['values', 'metrics', 'entries'].includes(where) && isEmptyRecord(v) ? 'fail' : 'refuse',
          what: `${where} of ${metric} = ${JSON.stringify(v)}`,
          object: (doc: Json) => {
            const m = metricsOf(doc)[metric] as Json
            if (where === 'value') (m.values as Json).q1 = v
            else if (where === 'signature' || where === 'measure' || where === 'values') m[where] = v
            else if (where === 'metric') metricsOf(doc)[metric] = v as Json
            else if (where === 'metrics') ((doc.entries as Json).qa as Json).metrics = v
            else if (where === 'entry') (doc.entries as Json).qa = v
            else doc[where] = where === 'version' && typeof v === 'string' ? '2' : v
          },
        }) satisfies BaselineEdit,
    ),
  // another metric's values (and signature) under a key
  fc
    .tuple(fc.constantFrom(...METRICS), fc.constantFrom(...METRICS))
    .filter(([a, b]) => a !== b)
    .map(
      ([a, b]) =>
        ({
          kind: 'refuse',
          what: `${a} and ${b} swapped`,
          object: (doc: Json) => {
            const ms = metricsOf(doc)
            ;[ms[a], ms[b]] = [ms[b] as Json, ms[a] as Json]
          },
        }) satisfies BaselineEdit,
    ),
  // a metric key the registry does not know (a typo)
  fc.constantFrom(...METRICS).map(
    (metric) =>
      ({
        kind: 'refuse',
        what: `${metric} renamed`,
        object: (doc: Json) => {
          const ms = metricsOf(doc)
          ms[`${metric}x`] = ms[metric] as Json
        },
      }) satisfies BaselineEdit,
  ),
  // an unknown key at each level
  fc.tuple(fc.constantFrom('top', 'entry', 'metric'), fc.constantFrom('signture', 'value', 'note', 'higherIsBetter', '__proto__x')).map(
    ([level, key]) =>
      ({
        kind: 'refuse',
        what: `unknown key ${key} at ${level}`,
        object: (doc: Json) => {
          const target = level === 'top' ? doc : level === 'entry' ? ((doc.entries as Json).qa as Json) : (metricsOf(doc)['recall@3'] as Json)
          target[key] = key === 'higherIsBetter' ? false : 'x'
        },
      }) satisfies BaselineEdit,
  ),
  // a key repeated in one object (a merge that kept both sides): the first copy of a value line with another value
  fc.tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })).map(
    ([at, v]) =>
      ({
        kind: 'refuse',
        what: `a repeated key (line ${at})`,
        text: (text: string) => {
          const lines = text.split('\n')
          const scalar = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*"[^"]+": [^{[]/.test(l))
          const [line, i] = scalar[at % scalar.length] as readonly [string, number]
          const copy = line.replace(/: .*$/, `: ${line.includes('"version"') ? 2 : v},`)
          return [...lines.slice(0, i), copy, ...lines.slice(i)].join('\n')
        },
      }) satisfies BaselineEdit,
  ),
  fc.constant<BaselineEdit>({ kind: 'same', what: 'a byte order mark', text: (t) => `\ufeff${t}` }),
)

function baselineSuite(o: SuiteOptions): void {
  let root: string
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'rag-property-files-'))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it(`a hand-edited baseline file is refused with a Matcher error naming it, never a pass; a BOM changes nothing (${o.runs} runs)`, () => {
    const kinds = new Set<string>()
    fc.assert(
      fc.property(baselineEdit, (edit) => {
        const dir = mkdtempSync(join(root, 'b-'))
        const options = { metrics: [...METRICS], dir, file: join(dir, 'qa.test.ts'), test: 'none', onWrite: () => undefined }
        withEnv({ update: 'force' }, () => allMatchers.toMatchMetricBaseline.call(quiet, CASES, 'qa', options))
        const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.json')) as string)
        const text = readFileSync(file, 'utf8')
        let edited = text
        if (edit.object !== undefined) {
          const doc = JSON.parse(text) as Json
          edit.object(doc)
          edited = `${JSON.stringify(doc, null, 2)}\n`
        }
        if (edit.text !== undefined) edited = edit.text(edited)
        writeFileSync(file, edited)
        const [positive, negated] = withEnv({ ci: 'true' }, () => [
          runSync('toMatchMetricBaseline', false, CASES, ['qa', options]),
          runSync('toMatchMetricBaseline', true, CASES, ['qa', options]),
        ])
        checkPair('toMatchMetricBaseline', positive, negated)
        kinds.add(edit.kind)
        if (edit.kind === 'fail') {
          if (positive.kind === 'pass') throw new Error(`${edit.what}: passed with the values emptied:\n${positive.message}`)
          return
        }
        if (edit.kind === 'same') {
          if (positive.kind !== 'pass') throw new Error(`${edit.what}: the unedited baseline holds, the edited one ${positive.kind}ed: ${positive.message}`)
          return
        }
        if (positive.kind !== 'matcher-error' || !positive.message.includes(file))
          throw new Error(`${edit.what}: ${positive.kind}ed instead of a Matcher error naming ${file}:\n${positive.message}\n--- the file:\n${edited}`)
      }),
      { seed: o.seed, numRuns: o.runs },
    )
    expect([...kinds].sort()).toEqual(['fail', 'refuse', 'same'])
  })
}

// ---------------------------------------------------------------- judge cache entries

/** A judge reply edit: on the entry object, or on its text. */
type CacheEdit = { what: string; object?: (entry: Json) => void; text?: (text: string) => string }

const cacheEdit: fc.Arbitrary<CacheEdit> = fc.oneof(
  // the score in the reply, in range or not, in the content, the value or both
  fc.tuple(fc.constantFrom(0, 1, 2, 4, 5, 6, -1, 99, 2.5), fc.constantFrom('content', 'value', 'both')).map(
    ([score, where]) =>
      ({
        what: `score ${score} in ${where}`,
        object: (e: Json) => {
          const reply = e.reply as Json
          const value = { ...(reply.value as Json), score }
          if (where !== 'value') reply.content = JSON.stringify(value)
          if (where !== 'content') reply.value = value
        },
      }) satisfies CacheEdit,
  ),
  // the wrong type
  fc.tuple(fc.constantFrom('score', 'reason'), junkValue).map(
    ([field, v]) =>
      ({
        what: `${field} = ${JSON.stringify(v)}`,
        object: (e: Json) => {
          const reply = e.reply as Json
          const value = { ...(reply.value as Json), [field]: v }
          reply.content = JSON.stringify(value)
          reply.value = value
        },
      }) satisfies CacheEdit,
  ),
  fc.constantFrom<CacheEdit>(
    { what: 'value deleted', object: (e) => delete (e.reply as Json).value },
    { what: 'digest deleted', object: (e) => delete (e.reply as Json).sha256 },
    { what: 'content not JSON', object: (e) => ((e.reply as Json).content = 'score: 5') },
    { what: 'model edited', object: (e) => (e.model = `${String(e.model)}-edited`) },
    { what: 'prompt edited', object: (e) => ((e.messages as Json[])[0] = { role: 'user', content: 'another prompt' }) },
    { what: 'reply model edited', object: (e) => ((e.reply as Json).model = 'another-model') },
    { what: 'format edited', object: (e) => (e.format = 999) },
    { what: 'not an object', text: () => '[]' },
    { what: 'truncated', text: (t) => t.slice(0, Math.floor(t.length / 2)) },
    // a key repeated, the edited copy last (JSON.parse keeps the last one)
    { what: 'content repeated', text: (t) => t.replace(/"content": ("(?:[^"\\]|\\.)*")/, '"content": $1, "content": "{\\"score\\": 5, \\"reason\\": \\"edited\\"}"') },
    { what: 'a byte order mark', text: (t) => `\ufeff${t}` },
  ),
)

function judgeCacheSuite(o: SuiteOptions): void {
  let root: string
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'rag-property-cache-'))
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it(`a hand-edited judge cache entry is never replayed: the assertion fails both ways naming the cause (${o.asyncRuns} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(cacheEdit, async (edit) => {
        const dir = mkdtempSync(join(root, 'c-'))
        // a rubric judge that answers 1 of 5 (the cache records it), replayed from the edited entry
        const warnings: string[] = []
        const judge = (mode: 'readwrite' | 'replay') =>
          functionJudge(() => ({ score: 1, reason: 'does not name the capital' }), {
            id: 'fixed',
            model: 'fixed-model',
            cache: judgeCache({ dir, mode, onWarning: (w) => warnings.push(w) }),
          })
        const args = (mode: 'readwrite' | 'replay') => ['Names the capital of France', 0.5, { judge: judge(mode) }]
        const recorded = await runAsync('toSatisfyRubric', false, 'Lyon.', args('readwrite'))
        if (recorded.kind !== 'fail') throw new Error(`the recorded run should fail (score 1 of 5): ${recorded.kind}: ${recorded.message}`)
        const name = readdirSync(dir).find((f) => f.endsWith('.json')) as string
        const file = join(dir, name)
        const text = readFileSync(file, 'utf8')
        let edited = text
        if (edit.object !== undefined) {
          const entry = JSON.parse(text) as Json
          edit.object(entry)
          edited = `${JSON.stringify(entry, null, 2)}\n`
        }
        if (edit.text !== undefined) edited = edit.text(edited)
        writeFileSync(file, edited)
        const positive = await runAsync('toSatisfyRubric', false, 'Lyon.', args('replay'))
        const negated = await runAsync('toSatisfyRubric', true, 'Lyon.', args('replay'))
        checkPair('toSatisfyRubric', positive, negated)
        // An edit that leaves the recorded reply as it was (a BOM JSON.parse refuses anyway, a repeated key
        // whose last copy is the original) may replay it: the same failure as recorded, never another answer.
        if (positive.kind === 'fail' && !positive.uncomputable) {
          if (stableMessage(positive.message) !== stableMessage(recorded.message))
            throw new Error(`${edit.what}: replayed an edited reply:\n${positive.message}\n--- recorded:\n${recorded.message}`)
          return
        }
        if (positive.kind === 'pass' || negated.kind === 'pass') throw new Error(`${edit.what}: a replayed edited entry passed (${positive.kind}, .not ${negated.kind})`)
        if (positive.kind === 'fail' && !/cache/i.test(positive.message)) throw new Error(`${edit.what}: the failure does not name the cache:\n${positive.message}`)
      }),
      { seed: o.seed, numRuns: o.asyncRuns },
    )
  })
}

/** A message without its cache counts (recorded: 1 call, replayed: 1 from cache). */
const stableMessage = (m: string): string => m.replace(/; \d+ calls?, \d+ from cache.*$/gm, '')

export function filesSuite(o: SuiteOptions): void {
  describe(`hand-edited baseline files and judge cache entries (seed ${o.seed})`, () => {
    baselineSuite(o)
    judgeCacheSuite(o)
  })
}
