#!/usr/bin/env node
// The eval-set form of toScoreBleuAbove / toScoreChrfAbove on 1,000 cases: the matcher itself
// (call + failure message, which builds the per-case table), and its metric work before and after
// the one-pass change, timed in the same process:
//
//   before: corpusBleu(answers, referenceStreams) + sentenceBleu per case (what the matcher did:
//           every answer and reference tokenized twice)
//   after:  bleuSegments(answers, references) (each text tokenized once; corpus and sentence
//           scores from the same per-case statistics)
//
// The matcher is loaded from the built package (dist/, or $RAG_MATCHERS_DIST). bleuSegments and
// chrfSegments are not part of the public entry points, so both sides of the before/after
// comparison come from one esbuild bundle of src/generation (same build, same code for the shared
// functions). Each measure: warm-up, then `reps` rounds with the variants interleaved; medians.
//
//   node bench/eval-set-bench.mjs [--reps 9] [--cases 1000]
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median } from './median.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')

/** The core BLEU/chrF functions, bundled from src/ (bleuSegments/chrfSegments are internal). */
async function loadCore() {
  const { build } = await import('esbuild')
  const result = await build({
    stdin: {
      contents: "export { corpusBleu, sentenceBleu, bleuSegments } from './bleu.ts'\nexport { corpusChrf, sentenceChrf, chrfSegments } from './chrf.ts'\n",
      resolveDir: join(root, 'src', 'generation'),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0].text
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
}

function timeMs(fn) {
  const t0 = process.hrtime.bigint()
  fn()
  return Number(process.hrtime.bigint() - t0) / 1e6
}

/** Runs the variants `reps` times, interleaved (rotating the order), after `warm` warm-up runs; median ms per variant. */
function compare(variants, reps, warm = 3) {
  const names = Object.keys(variants)
  for (let w = 0; w < warm; w++) for (const n of names) variants[n]()
  const times = Object.fromEntries(names.map((n) => [n, []]))
  for (let r = 0; r < reps; r++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(r + j) % names.length]
      times[n].push(timeMs(variants[n]))
    }
  }
  return Object.fromEntries(names.map((n) => [n, { median: median(times[n]), min: Math.min(...times[n]), max: Math.max(...times[n]) }]))
}

/** 1,000 cases from the generation pairs; every 4th case gets a second reference. */
export function evalSetCases(pairs, n = 1_000) {
  return Array.from({ length: n }, (_, i) => {
    const p = pairs[i % pairs.length]
    const references = i % 4 === 0 ? [p.reference, pairs[(i + 7) % pairs.length].reference] : [p.reference]
    return { id: `case-${i}`, answer: p.hypothesis, references }
  })
}

/**
 * Rows for bench/run.mjs (and the standalone printout): the matcher's set form, and the metric work
 * before vs after, for BLEU and chrF. Times are milliseconds per 1,000-case call (medians).
 */
export async function benchEvalSet({ matchers, pairs, cases: n = 1_000, reps = 9 }) {
  const core = await loadCore()
  const cases = evalSetCases(pairs, n)
  const answers = cases.map((c) => c.answer)
  const references = cases.map((c) => c.references)
  const width = Math.max(...references.map((r) => r.length))
  const streams = Array.from({ length: width }, (_, k) => references.map((r) => r[k] ?? null))
  const ctx = { isNot: false, promise: '', utils: { matcherHint: (m) => m, printReceived: String, printExpected: String } }
  let sink = 0

  // the two paths give the same numbers (checked here so a bench run cannot time a wrong path)
  {
    const { corpus, segments } = core.bleuSegments(answers, references)
    if (corpus.value !== core.corpusBleu(answers, streams).value) throw new Error('bleuSegments corpus differs from corpusBleu')
    if (!segments.every((s, i) => s.value === core.sentenceBleu(answers[i], references[i]).value)) throw new Error('bleuSegments segment differs from sentenceBleu')
  }

  const bleu = compare(
    {
      before: () => {
        sink += core.corpusBleu(answers, streams).value
        for (let i = 0; i < n; i++) sink += core.sentenceBleu(answers[i], references[i]).value
      },
      after: () => {
        const { corpus, segments } = core.bleuSegments(answers, references)
        sink += corpus.value
        for (let i = 0; i < n; i++) sink += segments[i].value
      },
      matcher: () => {
        const result = matchers.toScoreBleuAbove.call(ctx, cases, 99)
        if (result.pass) throw new Error('the threshold should fail')
        sink += result.message().length
      },
    },
    reps,
  )
  const chrf = compare(
    {
      before: () => {
        sink += core.corpusChrf(answers, streams).value
        for (let i = 0; i < n; i++) sink += core.sentenceChrf(answers[i], references[i]).value
      },
      after: () => {
        const { corpus, segments } = core.chrfSegments(answers, references)
        sink += corpus.value
        for (let i = 0; i < n; i++) sink += segments[i].value
      },
      matcher: () => {
        const result = matchers.toScoreChrfAbove.call(ctx, cases, 99)
        sink += result.message().length
      },
    },
    reps,
  )
  if (Number.isNaN(sink)) console.log('')
  const k = n.toLocaleString('en-US')
  return {
    bleu,
    chrf,
    rows: [
      { name: `eval-set BLEU matcher, ${k} cases (call + message)`, ms: bleu.matcher.median },
      { name: `  BLEU metric work before: corpusBleu + ${k} × sentenceBleu`, ms: bleu.before.median },
      { name: '  BLEU metric work after: bleuSegments', ms: bleu.after.median },
      { name: `eval-set chrF matcher, ${k} cases (call + message)`, ms: chrf.matcher.median },
      { name: `  chrF metric work before: corpusChrf + ${k} × sentenceChrf`, ms: chrf.before.median },
      { name: '  chrF metric work after: chrfSegments', ms: chrf.after.median },
    ],
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2)
  const opt = (name, fallback) => {
    const i = argv.indexOf(name)
    return i >= 0 ? Number(argv[i + 1]) : fallback
  }
  const dist = process.env.RAG_MATCHERS_DIST ?? join(root, 'dist')
  const matchers = await import(pathToFileURL(join(dist, 'runners', 'matchers.js')).href).catch((error) => {
    console.error(`eval-set bench: cannot load ${join(dist, 'runners', 'matchers.js')} (run \`npm run build\` first): ${error.message}`)
    process.exit(2)
  })
  const { generatePairs } = await import('./gen-generation.mjs')
  const reps = opt('--reps', 9)
  const { bleu, chrf, rows } = await benchEvalSet({ matchers, pairs: generatePairs(), cases: opt('--cases', 1_000), reps })
  console.log(`node ${process.version}, ${reps} interleaved repetitions after 3 warm-up runs; ms per call (median, [min–max])`)
  const show = (label, t) => console.log(`${label.padEnd(44)} ${t.median.toFixed(1).padStart(8)}  [${t.min.toFixed(1)}–${t.max.toFixed(1)}]`)
  show('BLEU before (corpusBleu + sentenceBleu each)', bleu.before)
  show('BLEU after (bleuSegments)', bleu.after)
  show('BLEU matcher set form (call + message)', bleu.matcher)
  show('chrF before (corpusChrf + sentenceChrf each)', chrf.before)
  show('chrF after (chrfSegments)', chrf.after)
  show('chrF matcher set form (call + message)', chrf.matcher)
  console.log(`speed-up of the metric work: BLEU ×${(bleu.before.median / bleu.after.median).toFixed(2)}, chrF ×${(chrf.before.median / chrf.after.median).toFixed(2)}`)
  void rows
}
