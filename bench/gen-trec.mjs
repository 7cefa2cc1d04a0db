// Writes the synthetic TREC workloads that bench/trec-bench.mjs times, with fixed seeds, into bench/.data/
// (git-ignored; ~600 MB in all):
//   msmarco   7,000 queries × 1,000 scored docs, ~1.1 relevant per query (MS MARCO passage dev-like, ≈250 MB run)
//   wide    100,000 queries × 100 docs, 2–5 graded judgments per query (≈350 MB run)
// Usage: node bench/gen-trec.mjs [msmarco|wide]...   (both when no argument). Re-running rewrites the same bytes.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
export const DATA_DIR = join(here, '.data')

export const WORKLOADS = {
  msmarco: { queries: 7_000, docsPerQuery: 1_000, seed: 20_240_601, graded: false, runId: 'bm25-a' },
  wide: { queries: 100_000, docsPerQuery: 100, seed: 20_240_602, graded: true, runId: 'bm25-b' },
}

/** sfc32: small, fast, and the same stream on every platform for a given seed. */
function rng(seed) {
  let a = 0x9e3779b9
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = seed >>> 0
  const next = () => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    let t = (a + b) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    d = (d + 1) | 0
    t = (t + d) | 0
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 16; i += 1) next()
  return next
}

/** Buffered writer: big string batches, one write per ~4 MB. */
function writer(path) {
  const fd = openSync(path, 'w')
  let parts = []
  let size = 0
  return {
    write(line) {
      parts.push(line)
      size += line.length
      if (size > 4_000_000) this.flush()
    },
    flush() {
      if (parts.length > 0) writeSync(fd, parts.join(''))
      parts = []
      size = 0
    },
    close() {
      this.flush()
      closeSync(fd)
    },
  }
}

export function generate(name) {
  const spec = WORKLOADS[name]
  if (!spec) throw new Error(`unknown workload ${name}; expected one of ${Object.keys(WORKLOADS).join(', ')}`)
  mkdirSync(DATA_DIR, { recursive: true })
  const random = rng(spec.seed)
  const int = (n) => Math.floor(random() * n)
  const qrelsPath = join(DATA_DIR, `${name}.qrels`)
  const runPath = join(DATA_DIR, `${name}.run`)
  const qrels = writer(qrelsPath)
  const run = writer(runPath)
  const usedQids = new Set()
  let runLines = 0
  for (let q = 0; q < spec.queries; q += 1) {
    let qid
    do qid = 1 + int(1_200_000)
    while (usedQids.has(qid))
    usedQids.add(qid)

    // Distinct random passage ids; the ranking is the generation order.
    const docs = new Set()
    while (docs.size < spec.docsPerQuery) docs.add(int(8_841_823))
    const ranked = [...docs]

    // Judgments: MS MARCO has ~1.1 relevant passages per query, each retrieved by a decent run ~85 % of the time,
    // mostly near the top. The wide set has graded judgments (0–3) and some judged-non-relevant docs.
    const judged = []
    const nJudged = spec.graded ? 2 + int(4) : random() < 0.1 ? 2 : 1
    for (let j = 0; j < nJudged; j += 1) {
      const grade = spec.graded ? int(4) : 1
      let doc
      if (random() < 0.85) {
        const rank = Math.min(spec.docsPerQuery - 1, Math.floor(-Math.log(1 - random()) * spec.docsPerQuery * 0.05))
        doc = ranked[rank]
      } else {
        do doc = int(8_841_823)
        while (docs.has(doc))
      }
      if (judged.some((x) => x.doc === doc)) continue
      judged.push({ doc, grade })
    }
    for (const { doc, grade } of judged) qrels.write(`${qid} 0 ${doc} ${grade}\n`)

    // BM25-like scores: decreasing with small random gaps, three decimals so that some scores tie.
    let score = 18 + random() * 12
    for (let r = 0; r < ranked.length; r += 1) {
      run.write(`${qid} Q0 ${ranked[r]} ${r + 1} ${score.toFixed(3)} ${spec.runId}\n`)
      score -= random() * (20 / spec.docsPerQuery)
      runLines += 1
    }
  }
  qrels.close()
  run.close()
  return { qrelsPath, runPath, runLines }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(WORKLOADS)
  for (const name of names) {
    const started = Date.now()
    const { qrelsPath, runPath, runLines } = generate(name)
    console.log(`${name}: ${runLines.toLocaleString('en-US')} run lines -> ${runPath}, ${qrelsPath} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  }
}
