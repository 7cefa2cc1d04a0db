#!/usr/bin/env node
// Long inputs.
//
// Default (issue #27, "bounded cost"): every synchronous generation metric (BLEU, chrF, ROUGE-1/2/L/Lsum,
// METEOR, TER, numeric consistency) on two different texts of 200,000 tokens and on two of 50,000
// one-token lines, through the core function and through the matcher (the `expect` package with the
// matchers registered), each in a fresh child process with a 120 s cap. Every row must finish or be
// refused up front within seconds; the table prints which, how long it took, and the refusal message.
// The code comes from the sources (an esbuild bundle of src/ and matchers/, written under
// node_modules/.cache so that the data/ lookup finds this package), so no build is needed.
//
//   node bench/long-inputs.mjs                        # the bounded-cost table (from sources)
//   node --expose-gc bench/long-inputs.mjs --scaling  # issue #13's tables below (built package, dist/)
//   node --expose-gc bench/long-inputs.mjs --scaling --full  # also ROUGE-L on 1M × 1M tokens (many minutes)
//
// Issue #13's tables: time and peak memory of ROUGE-L and METEOR on two different English-like
// texts of 10k, 100k and 1M tokens, and every generation metric on one 100k-token pair, against the
// built package (dist/, or $RAG_MATCHERS_DIST like bench/run.mjs).
//
// Each measurement runs in a fresh child process, so its peak RSS (getrusage maxRSS) is its own;
// "heap+buffers" is V8 heap used plus ArrayBuffer memory right after the call, before a GC (an
// upper bound of what the call left behind, not a sampled peak: a synchronous call cannot be sampled).
// The texts are generated with a fixed seed: Zipf-distributed words from a fixed English vocabulary,
// sentences of 8–30 words ending in '.', one line per text (so ROUGE-Lsum is one LCS too).
import { spawnSync } from 'node:child_process'
import { join, dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mulberry32 } from './gen-generation.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const dist = process.env.RAG_MATCHERS_DIST ?? join(root, 'dist')

const VOCABULARY = (
  'the of and to a in is that for it as was with be by on not he this are or his from at which but have an they ' +
  'you were had her she there been one all we their has would when if so no more can will other its about out ' +
  'model data results training method system paper study approach network value score task performance language ' +
  'large small new different first better high low result work time number based using show given used report ' +
  'big huge quick fast begin start help assist child kid error mistake close shut hard difficult car automobile ' +
  'translation attention layer encoder decoder token sequence vector weight learning rate batch output input ' +
  'improve reduce increase achieve measure evaluate compare test run apply compute build research evidence'
).split(' ')

/** `tokens` words of English-like text (deterministic for a seed). */
export function englishLike(tokens, seed) {
  const rand = mulberry32(seed)
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1))
  const cumulative = []
  let total = 0
  for (const w of weights) cumulative.push((total += w))
  const pick = () => {
    const r = rand() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cumulative[mid] < r) lo = mid + 1
      else hi = mid
    }
    return VOCABULARY[lo]
  }
  const parts = []
  let left = 8 + Math.floor(rand() * 23)
  for (let k = 0; k < tokens; k++) {
    parts.push(pick())
    if (--left === 0) {
      parts.push('. ')
      left = 8 + Math.floor(rand() * 23)
    } else parts.push(' ')
  }
  return parts.join('').trimEnd()
}

const MB = (bytes) => (bytes / 2 ** 20).toFixed(0)

/** Child: one measurement, printed as one JSON line. */
async function child(metric, tokens) {
  const lib = await import(pathToFileURL(join(dist, 'src', 'index.js')).href)
  const candidate = englishLike(tokens, 1)
  const reference = englishLike(tokens, 2)
  const unlimited = { maxTokens: Number.POSITIVE_INFINITY }
  const runs = {
    rougeL: () => lib.rougeScore(candidate, reference, { types: ['rougeL'], ...unlimited }).rougeL.value,
    rougeDefault: () => lib.rougeScore(candidate, reference, unlimited).rougeL.value,
    rouge12: () => lib.rougeScore(candidate, reference, { types: ['rouge1', 'rouge2'], ...unlimited }).rouge2.value,
    meteor: () => lib.meteorScore(candidate, reference, unlimited).value,
    bleu: () => lib.sentenceBleu(candidate, reference, unlimited).value,
    chrf: () => lib.sentenceChrf(candidate, reference, unlimited).value,
    numeric: () => lib.numericConsistency(candidate, reference, unlimited).value,
    rougeLRefused: () => {
      try {
        lib.rougeScore(candidate, reference, { types: ['rougeL'] })
        return 'not refused'
      } catch (error) {
        return error.message
      }
    },
  }
  // warm the code paths (and load WordNet) on a short pair first
  if (metric !== 'rougeLRefused') {
    const short = { ...unlimited }
    lib.meteorScore('a warm up', 'warm up text', short)
  }
  globalThis.gc?.()
  const start = performance.now()
  const value = runs[metric]()
  const ms = performance.now() - start
  const mem = process.memoryUsage()
  const out = { metric, tokens, ms, value, maxRss: process.resourceUsage().maxRSS * 1024, heap: mem.heapUsed + mem.arrayBuffers }
  process.stdout.write(`${JSON.stringify(out)}\n`)
}

function measure(metric, tokens) {
  const result = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', fileURLToPath(import.meta.url), '--child', metric, String(tokens)], {
    encoding: 'utf8',
    env: process.env,
    maxBuffer: 1 << 20,
  })
  const line = result.stdout.trim().split('\n').pop()
  if (result.status !== 0 || !line) return { metric, tokens, error: (result.stderr || `exit ${result.status}`).trim().split('\n').slice(-3).join(' ') }
  return JSON.parse(line)
}

function row(r) {
  if (r.error) return `| ${r.metric} | ${r.tokens.toLocaleString('en')} | failed: ${r.error} | | | |`
  const value = typeof r.value === 'number' ? r.value.toFixed(4) : r.value
  return `| ${r.metric} | ${r.tokens.toLocaleString('en')} | ${(r.ms / 1000).toFixed(2)} s | ${MB(r.maxRss)} MB | ${MB(r.heap)} MB | ${value} |`
}

// ------------------------------------------------------------------ bounded cost (issue #27)

const BUNDLE = join(root, 'node_modules', '.cache', 'rag-matchers-bench', 'long-inputs.mjs')

/** The core functions and the matchers, bundled from the sources (packages stay external). */
async function bundleSources() {
  const { build } = await import('esbuild')
  await build({
    stdin: {
      contents: [
        "export { sentenceBleu } from './src/generation/bleu.ts'",
        "export { sentenceChrf } from './src/generation/chrf.ts'",
        "export { rougeScore } from './src/generation/rouge.ts'",
        "export { meteorScore } from './src/generation/meteor.ts'",
        "export { sentenceTer } from './src/generation/ter/ter.ts'",
        "export { numericConsistency } from './src/generation/numeric-consistency.ts'",
        "export { allMatchers } from './matchers/all.ts'",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outfile: BUNDLE,
    logLevel: 'silent',
  })
}

/** The largest input each bounded metric accepts by default (the `limit` rows): its worst case. */
const AT_LIMIT = {
  'ROUGE-L': { tokens: 50_000, perLine: 0 },
  'ROUGE-Lsum': { tokens: 20_000, perLine: 10 },
  TER: { tokens: 5_000, perLine: 0 },
}

/**
 * English-like words with a number every 40 words (for the numeric check): 200,000 tokens on one
 * line (`tokens`), 50,000 one-token lines (`lines`), or a metric's default limit (`limit`).
 */
function hostileText(shape, seed, metric) {
  const { tokens, perLine } = shape === 'tokens' ? { tokens: 200_000, perLine: 0 } : shape === 'lines' ? { tokens: 50_000, perLine: 1 } : AT_LIMIT[metric]
  const words = englishLike(tokens, seed).replaceAll('.', '').split(' ').filter(Boolean).slice(0, tokens)
  for (let k = 0; k < words.length; k += 40) words[k] = String((k * 7919 + seed) % 1000)
  if (perLine === 0) return words.join(' ')
  const lines = []
  for (let k = 0; k < words.length; k += perLine) lines.push(words.slice(k, k + perLine).join(' '))
  return lines.join('\n')
}

const SHAPES = { tokens: '200,000 tokens', lines: '50,000 lines', limit: 'at the default limit' }

/** metric → [core call, matcher call] on (candidate, reference). */
function calls(lib, expect) {
  const rouge = (type) => [(c, r) => lib.rougeScore(c, r, { types: [type] })[type].value, (c, r) => expect(c).toScoreRougeAbove(r, 0, { type })]
  return {
    BLEU: [(c, r) => lib.sentenceBleu(c, r).value, (c, r) => expect(c).toScoreBleuAbove(r, 0)],
    chrF: [(c, r) => lib.sentenceChrf(c, r).value, (c, r) => expect(c).toScoreChrfAbove(r, 0)],
    'ROUGE-1': rouge('rouge1'),
    'ROUGE-2': rouge('rouge2'),
    'ROUGE-L': rouge('rougeL'),
    'ROUGE-Lsum': rouge('rougeLsum'),
    METEOR: [(c, r) => lib.meteorScore(c, r).value, (c, r) => expect(c).toScoreMeteorAbove(r, 0)],
    TER: [(c, r) => lib.sentenceTer(c, r).score, (c, r) => expect(c).toScoreTerBelow(r, 1e9)],
    numeric: [(c, r) => lib.numericConsistency(c, r).value, (c, r) => expect(c).toStateNumbersOf(r)],
  }
}

/** Child: one (metric, shape, path) row, printed as one JSON line. */
async function boundedChild(metric, shape, path) {
  const lib = await import(pathToFileURL(BUNDLE).href)
  const { expect } = await import('expect')
  expect.extend(lib.allMatchers)
  const candidate = hostileText(shape, 1, metric)
  const reference = hostileText(shape, 2, metric)
  // warm up (loads WordNet for METEOR) on a short pair
  lib.meteorScore('a warm up', 'warm up text')
  const [core, matcher] = calls(lib, expect)[metric]
  const start = performance.now()
  let outcome
  try {
    const value = path === 'core' ? core(candidate, reference) : matcher(candidate, reference)
    outcome = { kind: 'finished', detail: typeof value === 'number' ? value.toFixed(4) : 'passed' }
  } catch (error) {
    // eslint-disable-next-line no-control-regex -- strips the runner's ANSI colours
    const message = String(error?.message ?? error).replace(/\u001b\[[0-9;]*m/g, '')
    const refused = error?.name === 'MetricInputError' || message.includes('Matcher error')
    const lines = message.split('\n')
    const line = lines.find((l) => l.includes('Matcher error')) ?? lines.find((l) => /Expected|must|refus|at most/.test(l)) ?? lines[0]
    outcome = refused ? { kind: 'refused', detail: line.trim() } : { kind: 'finished', detail: `assertion failed: ${message.split('\n')[0].trim()}` }
  }
  const seconds = (performance.now() - start) / 1000
  process.stdout.write(`${JSON.stringify({ ...outcome, seconds, rss: process.resourceUsage().maxRSS * 1024 })}\n`)
}

function boundedRow(metric, shape, path) {
  const result = spawnSync(process.execPath, ['--max-old-space-size=4096', fileURLToPath(import.meta.url), '--bounded-child', metric, shape, path], {
    encoding: 'utf8',
    env: process.env,
    timeout: 120_000,
    maxBuffer: 1 << 20,
  })
  const line = result.stdout.trim().split('\n').pop()
  const size =
    shape === 'limit'
      ? `${AT_LIMIT[metric].tokens.toLocaleString('en')} tokens${AT_LIMIT[metric].perLine > 0 ? ` in lines of ${AT_LIMIT[metric].perLine}` : ''} (the default limit)`
      : SHAPES[shape]
  const what = `| ${metric} | ${size} | ${path} |`
  if (result.error?.code === 'ETIMEDOUT') return `${what} DID NOT FINISH in 120 s | | |`
  if (result.status !== 0 || !line) return `${what} crashed: ${(result.stderr || `exit ${result.status}`).trim().split('\n').slice(-2).join(' ')} | | |`
  const r = JSON.parse(line)
  return `${what} ${r.kind} in ${r.seconds.toFixed(2)} s | ${MB(r.rss)} MB | ${r.detail.replaceAll('|', '\\|')} |`
}

async function bounded() {
  await bundleSources()
  console.log('Bounded cost (issue #27): two different texts per row, default options, fresh process per row\n')
  console.log('| metric | input (each text) | through | outcome | peak RSS | value or message |')
  console.log('|---|---|---|---|---:|---|')
  for (const shape of ['tokens', 'lines']) {
    for (const metric of ['BLEU', 'chrF', 'ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-Lsum', 'METEOR', 'TER', 'numeric']) {
      for (const path of ['core', 'matcher']) console.log(boundedRow(metric, shape, path))
    }
  }
  // the quadratic metrics' worst case that the defaults still accept
  for (const metric of Object.keys(AT_LIMIT)) for (const path of ['core', 'matcher']) console.log(boundedRow(metric, 'limit', path))
}

async function main() {
  if (process.argv[2] === '--bounded-child') return boundedChild(process.argv[3], process.argv[4], process.argv[5])
  if (process.argv[2] === '--child') return child(process.argv[3], Number(process.argv[4]))
  const args = new Set(process.argv.slice(2))
  if (!args.has('--scaling')) return bounded()
  const header = ['| metric | tokens per text | time | peak RSS | heap+buffers | value |', '|---|---:|---:|---:|---:|---|']
  console.log('ROUGE-L and METEOR on two different texts (limits raised with maxTokens: Infinity)\n')
  console.log(header.join('\n'))
  for (const tokens of [10_000, 100_000, 1_000_000]) {
    for (const metric of ['rougeL', 'meteor']) {
      if (metric === 'rougeL' && tokens === 1_000_000 && !args.has('--full')) {
        console.log(`| rougeL | 1,000,000 | skipped (|cand|·|ref|/32 ≈ 3·10¹⁰ word steps; run with --full) | | | |`)
        continue
      }
      console.log(row(measure(metric, tokens)))
    }
  }
  console.log('\nEvery generation metric on one 100,000-token pair (limits raised)\n')
  console.log(header.join('\n'))
  for (const metric of ['bleu', 'chrf', 'rouge12', 'rougeDefault', 'meteor', 'numeric']) console.log(row(measure(metric, 100_000)))
  console.log('\nDefault limit: ROUGE-L on 1,000,000 tokens is refused up front\n')
  const refused = measure('rougeLRefused', 1_000_000)
  console.log(refused.error ? `failed: ${refused.error}` : `${(refused.ms / 1000).toFixed(2)} s: ${refused.value}`)
}

// run only as a script (the generator is importable)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
